import { InputError } from "../../services/core/errors.ts";
import { assignProvisionIds } from "../../services/core/public-ids.ts";
import { type CanonicalDocument, type CanonicalDocumentInput, canonicalDocumentSchema } from "../model.ts";

/**
 * Every document from every adapter passes here before the store sees it: the zod model, then
 * the rules zod cannot state (unique ids, sections that exist). The first fault is reported with
 * the file and the field path, and nothing has been written yet.
 */
export function validateDocument(input: CanonicalDocumentInput, file: string): CanonicalDocument {
  const parsed = canonicalDocumentSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new InputError(file, issue.path.join(".") || "(document)", issue.message);
  }
  const doc = parsed.data;

  const sectionIds = new Set<string>();
  doc.sections.forEach((section, i) => {
    if (sectionIds.has(section.id))
      throw new InputError(file, `sections.${i}.id`, `duplicate section id ${section.id}`);
    if (section.parentId !== null && !sectionIds.has(section.parentId)) {
      throw new InputError(
        file,
        `sections.${i}.parentId`,
        `unknown or later parent section ${section.parentId}`,
      );
    }
    sectionIds.add(section.id);
  });

  const sourceIds = new Set<string>();
  doc.provisions.forEach((provision, i) => {
    if (sourceIds.has(provision.sourceId)) {
      throw new InputError(file, `provisions.${i}.sourceId`, `duplicate provision id ${provision.sourceId}`);
    }
    sourceIds.add(provision.sourceId);
    if (provision.sectionId !== null && !sectionIds.has(provision.sectionId)) {
      throw new InputError(file, `provisions.${i}.sectionId`, `unknown section ${provision.sectionId}`);
    }
    const versionIds = new Set<string>();
    provision.versions.forEach((version, j) => {
      if (versionIds.has(version.versionId)) {
        throw new InputError(
          file,
          `provisions.${i}.versions.${j}.versionId`,
          `duplicate version id ${version.versionId}`,
        );
      }
      versionIds.add(version.versionId);
    });
  });
  return doc;
}

/**
 * A file may not give two provisions the same public id. The LEGI adapter never does (repeated
 * article numbers are disambiguated), but a hand-written file that names two articles "1" in one
 * act is a mistake the editor must fix rather than something we paper over.
 */
export function rejectDuplicateNumbers(doc: CanonicalDocument, file: string): void {
  const seen = new Map<string, number>();
  const ids = assignProvisionIds(doc.publicId, doc.provisions);
  doc.provisions.forEach((provision, i) => {
    const plain = ids.get(provision.sourceId)!.split("~")[0]!;
    const first = seen.get(plain);
    if (first !== undefined) {
      throw new InputError(
        file,
        `provisions.${i}.number`,
        `public id ${plain} is also that of provisions.${first}`,
      );
    }
    seen.set(plain, i);
  });
}
