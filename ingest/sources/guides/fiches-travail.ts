import path from "node:path";
import { InputError } from "../../../services/core/errors.ts";
import { readJsonFile } from "../read-json.ts";
import { type GuideCitation, plainSpaces } from "./citation.ts";

/**
 * The Ministry of Labour's practical guides (@socialgouv/fiches-travail-data,
 * data/fiches-travail.json): each guide has sections, each section cites articles of any code
 * (`references.<LEGITEXT…>.articles[]`, with the article's cid and the cited version's id).
 */
interface Fiche {
  pubId?: unknown;
  title?: unknown;
  sections?: unknown;
}
interface Section {
  anchor?: unknown;
  title?: unknown;
  text?: unknown;
  references?: Record<string, { articles?: Array<{ cid?: unknown; id?: unknown }> }>;
}

export const FICHES_TRAVAIL_FILE = "data/fiches-travail.json";

export function readFichesTravail(packageDir: string): GuideCitation[] {
  const file = path.join(packageDir, FICHES_TRAVAIL_FILE);
  const fiches = readJsonFile(file);
  if (!Array.isArray(fiches)) throw new InputError(file, "(root)", "expected an array of guides");
  return (fiches as Fiche[]).flatMap((fiche, i) => {
    if (typeof fiche.pubId !== "string" || typeof fiche.title !== "string")
      throw new InputError(file, `${i}.pubId`, "each guide needs a string pubId and title");
    if (!Array.isArray(fiche.sections)) throw new InputError(file, `${i}.sections`, "expected an array");
    const guideTitle = plainSpaces(fiche.title);
    return (fiche.sections as Section[]).flatMap((section, j): GuideCitation[] => {
      const articles = Object.values(section.references ?? {}).flatMap((ref) =>
        (ref.articles ?? []).flatMap((a) =>
          [a.cid, a.id].filter((id): id is string => typeof id === "string"),
        ),
      );
      if (articles.length === 0) return [];
      return [
        {
          source: "fiches-travail",
          guideId: fiche.pubId as string,
          section: typeof section.anchor === "string" && section.anchor ? section.anchor : String(j),
          guideTitle,
          sectionTitle: typeof section.title === "string" ? plainSpaces(section.title) : "",
          paragraphs: typeof section.text === "string" ? plainSpaces(section.text) : "",
          articles: [...new Set(articles)],
        },
      ];
    });
  });
}
