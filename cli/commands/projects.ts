import type { Command } from "commander";
import { createProject } from "../../services/access/keys.ts";
import { listProjects } from "../../services/store/access.ts";
import { table } from "../output.ts";
import type { CliRuntime } from "../runtime.ts";

/** `corpus projects create|list`. */
export function addProjectsCommands(program: Command, rt: CliRuntime): void {
  const projects = program
    .command("projects")
    .description("Projects group API keys and usage; name one after the calling application.");
  projects
    .command("create <name>")
    .option("--plan <plan>", "beta, pro or scale", "beta")
    .action(async (name: string, options: { plan: string }) => {
      const project = await rt.withStore((db) => createProject(db, name, options.plan));
      rt.out(
        `Project ${project.name} created on the ${project.plan} plan. Next: corpus keys create --project ${project.name}`,
      );
    });
  projects.command("list").action(async () => {
    const rows = await rt.withStore(listProjects);
    rt.out(
      table(
        ["id", "name", "plan", "owner", "created"],
        rows.map((p) => [
          `#${p.id}`,
          p.name,
          p.plan,
          p.ownerAccountId === null ? "cli" : `account ${p.ownerAccountId}`,
          p.createdAt.toISOString(),
        ]),
      ),
    );
  });
}
