import { type Request, type Response, Router } from "express";
import { z } from "zod";
import { createKey, createProject, projectNameSchema, revokeKey } from "../access/keys.ts";
import { SCOPES } from "../access/scopes.ts";
import { DOMAINS } from "../core/domains.ts";
import { AppError } from "../core/errors.ts";
import type { AppContext } from "../runtime/context.ts";
import {
  findApiKeyByLookupId,
  findPlan,
  findProjectById,
  listApiKeys,
  listProjectsOwnedBy,
  type ProjectRow,
} from "../store/access.ts";
import { dailyUsage } from "../store/accounts.ts";
import { currentAccount, fieldErrors } from "./forms.ts";
import type { ConsoleSession } from "./session.ts";
import { keyCreatedPage, type ProjectView, projectPage, projectsPage } from "./views/project-pages.ts";

const CHART_DAYS = 30;

const projectForm = z.object({ name: projectNameSchema });

/** A checkbox group arrives as nothing, one string or several. */
const checked = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(item));

const keyForm = z.object({
  label: z
    .string()
    .trim()
    .max(100, "at most 100 characters")
    .optional()
    .transform((v) => v || undefined),
  scopes: checked(z.enum(SCOPES, "not a scope")).refine((s) => s.length > 0, "tick at least one scope"),
  domains: checked(z.enum(DOMAINS, "not a field of law")),
});

const lookupIdSchema = z.string().regex(/^[A-Za-z0-9]{8}$/);

/** Projects, keys and usage of the signed-in account. A project of another account is "not found". */
export function projectRoutes(ctx: AppContext, session: ConsoleSession): Router {
  const router = Router();

  const ownedProject = async (req: Request, res: Response): Promise<ProjectRow> => {
    const account = currentAccount(res);
    const id = Number.parseInt(String(req.params.id), 10);
    const project = Number.isSafeInteger(id) ? await findProjectById(ctx.db, id) : undefined;
    if (!project || project.ownerAccountId !== account.id)
      throw new AppError("not_found", "There is no such project.");
    return project;
  };

  const projectView = async (project: ProjectRow, extra: Partial<ProjectView> = {}): Promise<ProjectView> => {
    const plan = await findPlan(ctx.db, project.plan);
    if (!plan) throw new Error(`project ${project.id} has an unknown plan ${project.plan}`);
    // This process's counts go to the database first, so the chart includes the latest requests.
    await ctx.usage.flush();
    const [keys, usage, daily] = await Promise.all([
      listApiKeys(ctx.db, project.name),
      ctx.limiter.usage(project.id, plan),
      dailyUsage(ctx.db, project.id, CHART_DAYS, new Date().toISOString().slice(0, 10)),
    ]);
    return { project, plan, keys, usage, daily, ...extra };
  };

  router.get("/console", async (req, res) => {
    const account = currentAccount(res);
    res.send(
      projectsPage(session.pageContext(req, res), await listProjectsOwnedBy(ctx.db, account.id)).value,
    );
  });

  router.post("/console/projects", async (req, res) => {
    const account = currentAccount(res);
    const pc = session.pageContext(req, res);
    const name = typeof req.body?.name === "string" ? req.body.name : undefined;
    const parsed = projectForm.safeParse(req.body);
    const render = async (errors: Record<string, string>) =>
      res
        .status(400)
        .send(projectsPage(pc, await listProjectsOwnedBy(ctx.db, account.id), { name, errors }).value);
    if (!parsed.success) return void (await render(fieldErrors(parsed.error) as Record<string, string>));
    try {
      const project = await createProject(ctx.db, parsed.data.name, "beta", account.id);
      res.redirect(303, `/console/projects/${project.id}`);
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== "invalid_request") throw error;
      // Names are unique per account (migration 015): this says nothing of other accounts' projects.
      await render({ name: "you have a project with this name already: choose another" });
    }
  });

  router.get("/console/projects/:id", async (req, res) => {
    const project = await ownedProject(req, res);
    const revoked = lookupIdSchema.safeParse(req.query.revoked);
    const notice = revoked.success
      ? `Key ${revoked.data} is revoked: requests with it are refused from now on.`
      : undefined;
    res.send(projectPage(session.pageContext(req, res), await projectView(project, { notice })).value);
  });

  router.post("/console/projects/:id/keys", async (req, res) => {
    const account = currentAccount(res);
    const project = await ownedProject(req, res);
    const pc = session.pageContext(req, res);
    const parsed = keyForm.safeParse(req.body);
    const plan = await findPlan(ctx.db, project.plan);
    const errors = parsed.success ? {} : fieldErrors(parsed.error);
    if (parsed.success && parsed.data.scopes.includes("ingest:write") && account.role !== "editor")
      errors.scopes = "ingest:write is for corpus editors";
    if (parsed.success && parsed.data.scopes.includes("answer:write") && !plan?.answerEnabled)
      errors.scopes = `the ${project.plan} plan does not include the answer endpoint`;
    if (!parsed.success || Object.keys(errors).length > 0) {
      const submitted = (name: string) => [req.body?.[name] ?? []].flat().map(String);
      const label = typeof req.body?.label === "string" ? req.body.label : undefined;
      const form = { label, scopes: submitted("scopes"), domains: submitted("domains"), errors };
      const view = await projectView(project, { form });
      return void res.status(400).send(projectPage(pc, view).value);
    }
    const created = await createKey(ctx.db, ctx.keyHashSecret, { project: project.id, ...parsed.data });
    res.send(keyCreatedPage(pc, project, created.key, ctx.config.PUBLIC_URL).value);
  });

  router.post("/console/projects/:id/keys/:lookupId/revoke", async (req, res) => {
    const project = await ownedProject(req, res);
    const lookupId = String(req.params.lookupId);
    const key = await findApiKeyByLookupId(ctx.db, lookupId);
    if (!key || key.projectId !== project.id)
      throw new AppError("not_found", "There is no such key in this project.");
    if (!key.revokedAt) await revokeKey(ctx.db, lookupId);
    res.redirect(303, `/console/projects/${project.id}?revoked=${encodeURIComponent(lookupId)}`);
  });

  return router;
}
