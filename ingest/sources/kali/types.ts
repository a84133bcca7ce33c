import type { LegiLink } from "../legi/types.ts";

/**
 * The KALI JSON shapes of `@socialgouv/kali-data` (DILA's collective agreements), as far as we read
 * them. One file per agreement (per IDCC when one container covers several branches): the base
 * text, then groups of attached texts (« Textes Attachés », « Textes Salaires ») holding each
 * amendment or agreement, each a tree of sections and articles. Links have LEGI's shape.
 */
export interface KaliArticle {
  type: "article";
  data: {
    /** Stable across versions. */
    cid: string;
    /** This version. */
    id: string;
    /** As printed; absent on about one article in six (preambles, one-article salary texts). */
    num?: string;
    /** VIGUEUR, VIGUEUR_ETEN, VIGUEUR_NON_ETEN, VIGUEUR_DIFF… */
    etat: string | null;
    /** The article's HTML. */
    content: string;
    /** Its own title (« Période d'essai »). */
    surtitre?: string;
    nota?: string;
    /** « Modifié par avenant n° 4 du 15 juillet 2009 ». */
    historique?: string;
    lstLienModification?: LegiLink[];
  };
}

export interface KaliSection {
  type: "section";
  data: {
    /** Absent on the groups of attached texts. */
    cid?: string;
    id?: string;
    title?: string;
    etat: string | null;
    /** On a text (KALITEXT): when it was last modified. */
    modifDate?: string;
  };
  children?: Array<KaliSection | KaliArticle>;
}

export interface KaliAgreement {
  /** `section` (with `data.nature` IDCC) for one branch of a container split per IDCC. */
  type: "convention collective" | "section";
  data: {
    nature?: string;
    /** The IDCC; absent on a few agreements the package lists without content. */
    num?: number | string;
    id: string;
    title: string;
    shortTitle?: string;
  };
  children?: Array<KaliSection | KaliArticle>;
}
