import path from "node:path";
import type { z } from "zod";
import { InputError } from "../../../services/core/errors.ts";
import { numberSlug } from "../../../services/core/public-ids.ts";
import type { CanonicalDocumentInput, CanonicalProvision, CanonicalSection } from "../../model.ts";
import { readJsonFile } from "../read-json.ts";
import { type CanonicalDocumentFile, canonicalFileSchema, type SectionNode } from "./format.ts";

type BodyNode = CanonicalDocumentFile["body"][number];

function isSection(node: BodyNode | SectionNode["body"][number]): node is SectionNode {
  return "section" in node;
}

/** Flattens one hand-written document into the canonical model. */
export function adaptCanonicalDocument(
  doc: CanonicalDocumentFile,
  fileLabel: string,
): CanonicalDocumentInput {
  const sections: CanonicalSection[] = [];
  const provisions: CanonicalProvision[] = [];

  const walk = (nodes: Array<BodyNode>, parentId: string | null, path: string) => {
    nodes.forEach((node, i) => {
      if (isSection(node)) {
        const id = node.id ?? `${doc.id}/s${path}${i + 1}`;
        sections.push({
          id,
          parentId,
          title: node.section.trim(),
          status: null,
          effectiveFrom: null,
          effectiveTo: null,
        });
        walk(node.body, id, `${path}${i + 1}.`);
        return;
      }
      const sourceId = node.id ?? `${doc.id}/${numberSlug(node.article)}`;
      const effectiveFrom = node.effectiveFrom ?? null;
      const effectiveTo = node.effectiveTo ?? null;
      const status = node.status ?? "in_force";
      const versionId = node.versionId ?? `${sourceId}@${effectiveFrom ?? "undated"}`;
      const versions = node.versions ?? [];
      provisions.push({
        sourceId,
        versionId,
        number: node.article.trim(),
        text: node.text,
        html: node.html ?? null,
        notes: node.notes ?? null,
        status,
        sourceStatus: null,
        effectiveFrom,
        effectiveTo,
        sectionId: parentId,
        heading: node.heading?.trim() || null,
        versions: versions.some((v) => v.versionId === versionId)
          ? versions
          : [
              ...versions,
              {
                versionId,
                label: null,
                status,
                sourceStatus: null,
                effectiveFrom,
                effectiveTo,
                text: node.text,
                repealedOn: status === "repealed" ? effectiveTo : null,
              },
            ],
        links: node.links ?? [],
      });
    });
  };
  walk(doc.body, null, "");

  return {
    source: {
      name: doc.source,
      documentId: doc.sourceId ?? doc.id,
      version: doc.sourceVersion ?? path.basename(fileLabel),
    },
    publicId: doc.id,
    kind: doc.kind,
    title: doc.title.trim(),
    shortTitle: doc.shortTitle?.trim() || null,
    aliases: (doc.aliases ?? []).map((alias) => alias.trim()).filter((alias) => alias !== ""),
    jurisdiction: doc.jurisdiction.toUpperCase(),
    status: doc.status,
    sourceStatus: null,
    effectiveFrom: doc.effectiveFrom ?? null,
    effectiveTo: doc.effectiveTo ?? null,
    modifiedOn: doc.modifiedOn ?? null,
    sections,
    provisions,
  };
}

type Issue = z.core.$ZodIssue;

/**
 * The first problem, named as precisely as possible. A body entry that is neither a valid section
 * nor a valid article fails zod's union as a whole ("Invalid input" at the entry, however deep the
 * fault); descend into the alternative the entry was evidently meant to be — the one with the
 * fewest complaints about the entry's own keys — so that the path names the field at fault,
 * e.g. `documents.0.body.1.body.0.text`.
 */
function firstProblem(issues: readonly Issue[], prefix: PropertyKey[] = []) {
  const issue = issues[0]!;
  const path = [...prefix, ...issue.path];
  if (issue.code === "invalid_union") {
    const ownKeyIssues = (branch: Issue[]) => branch.filter((i) => i.path.length <= 1).length;
    const meant = issue.errors.reduce<Issue[] | undefined>(
      (best, branch) => (best === undefined || ownKeyIssues(branch) < ownKeyIssues(best) ? branch : best),
      undefined,
    );
    if (meant?.length) return firstProblem(meant, path);
  }
  return { field: path.map(String).join("."), message: issue.message };
}

/** Checks a canonical file's content (already parsed JSON); `label` names it in errors. */
export function parseCanonicalFile(raw: unknown, label: string): CanonicalDocumentInput[] {
  const parsed = canonicalFileSchema.safeParse(raw);
  if (!parsed.success) {
    const { field, message } = firstProblem(parsed.error.issues);
    throw new InputError(label, field || "(root)", message);
  }
  return parsed.data.documents.map((doc) => adaptCanonicalDocument(doc, label));
}

/** Reads and checks a canonical JSON file; the first problem found is reported with its path. */
export function readCanonicalFile(file: string): CanonicalDocumentInput[] {
  return parseCanonicalFile(readJsonFile(file), file);
}
