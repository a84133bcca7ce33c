/**
 * Public ids: what clients cite and put in URLs.
 *
 * - A document's public id is a slug of its title: `code-du-travail`.
 * - A provision's public id is `<document public id>/<article number slug>`:
 *   `code-du-travail/L1237-1-1`, `code-du-travail/Annexe-I`.
 * - Ids are assigned once per source article (the LEGI `cid`, stable across versions) and never
 *   change afterwards, so a citation keeps working when the text is amended.
 * - The sources do repeat article numbers inside one code (annexes in several chapters, a few
 *   numbering errors in LEGI itself). The first article in document order keeps the plain id;
 *   each later one gets `~<digits of its source id>`, e.g. `code-du-travail/Annexe-I~40477365`.
 * - Source ids (LEGIARTI…, LEGITEXT…) resolve too; see the store's lookups.
 */

/**
 * Accents off: `é` → `e`, `ç` → `c` (canonical decomposition, then the combining marks dropped).
 * Spacing characters such as `^` or `´` are kept: they are not accents on a letter. The one fold
 * every module uses (ids, queries, snippets, synonyms, classification rules).
 */
export function foldAccents(value: string): string {
  return value.normalize("NFD").replace(/\p{M}/gu, "");
}

/** `Code de la sécurité sociale` → `code-de-la-securite-sociale`. */
export function slugify(title: string): string {
  return foldAccents(title)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** `L1453-1 A` → `L1453-1-A`; `Annexe à l'article R1422-4` → `Annexe-a-l-article-R1422-4`. Case is kept. */
export function numberSlug(number: string): string {
  return foldAccents(number)
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/**
 * The form used to match an article number however a person wrote it:
 * `L. 1237-1-1`, `l1237-1-1` and `L 1237-1-1` all give `L1237-1-1`. A dot between digits
 * separates parts, as in a collective agreement's `3.4`, which is not article `34`.
 */
export function numberKey(number: string): string {
  return foldAccents(number)
    .toUpperCase()
    .split(/(?<=\d)\s*\.\s*(?=\d)/)
    .map((part) => part.replace(/[\s.*°]+/g, "").replace(/[^A-Z0-9-]+/g, "-"))
    .join(".");
}

export function provisionPublicId(documentPublicId: string, number: string): string {
  return `${documentPublicId}/${numberSlug(number) || "article"}`;
}

/** The suffix that disambiguates a repeated number: the significant digits of the source id. */
export function disambiguated(publicId: string, sourceId: string): string {
  const digits = sourceId.replace(/\D/g, "").replace(/^0+/, "") || sourceId;
  return `${publicId}~${digits}`;
}

/**
 * Assigns public ids to a document's provisions in document order.
 * `existing` maps source ids already stored to their ids, which are kept as they are.
 */
export function assignProvisionIds(
  documentPublicId: string,
  provisions: ReadonlyArray<{ sourceId: string; number: string }>,
  existing: ReadonlyMap<string, string> = new Map(),
): Map<string, string> {
  const assigned = new Map<string, string>();
  const taken = new Set(existing.values());
  for (const provision of provisions) {
    const kept = existing.get(provision.sourceId);
    if (kept) {
      assigned.set(provision.sourceId, kept);
      continue;
    }
    const plain = provisionPublicId(documentPublicId, provision.number);
    const id = taken.has(plain) ? disambiguated(plain, provision.sourceId) : plain;
    taken.add(id);
    assigned.set(provision.sourceId, id);
  }
  return assigned;
}
