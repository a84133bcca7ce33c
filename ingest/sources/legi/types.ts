/** The LEGI JSON shapes of `@socialgouv/legi-data`, as far as we read them. */
export interface LegiArticleVersion {
  id: string;
  etat: string | null;
  version: string | null;
  dateDebut: number;
  dateFin: number;
}

export interface LegiLink {
  textCid: string;
  textTitle: string | null;
  linkType: string;
  linkOrientation: "source" | "cible";
  articleNum: string | null;
  articleId: string | null;
  natureText: string | null;
  datePubliTexte: string | null;
  dateSignaTexte: string | null;
  dateDebutCible: string | null;
}

export interface LegiArticle {
  type: "article";
  data: {
    id: string;
    cid: string;
    num: string;
    etat: string | null;
    dateDebut: number;
    dateFin: number;
    texte: string;
    texteHtml: string | null;
    nota: string | null;
    articleVersions?: LegiArticleVersion[];
    lienModifications?: LegiLink[];
  };
}

export interface LegiSection {
  type: "section";
  data: { id: string; cid: string; title: string; etat: string | null; dateDebut: string; dateFin: string };
  children: Array<LegiSection | LegiArticle>;
}

export interface LegiCode {
  type: "code";
  data: {
    id: string;
    cid: string;
    title: string;
    etat: string | null;
    dateModif: string;
    dateDebutVersion: string;
    dateFinVersion: string;
  };
  children: Array<LegiSection | LegiArticle>;
}

/** An entry of the package's `data/index.json`. */
export interface LegiIndexEntry {
  cid: string;
  titre: string;
  etat: string | null;
  date_debut: string | null;
  date_fin: string | null;
}
