import { describe, expect, it } from "vitest";
import { pruneToc } from "./document.ts";

const toc = [
  {
    id: "P1",
    title: "Partie 1",
    sections: [{ id: "L1", title: "Livre 1", sections: [{ id: "T1", title: "Titre 1", sections: [] }] }],
  },
  { id: "P2", title: "Partie 2", sections: [] },
];

describe("pruneToc", () => {
  it("keeps the first levels and leaves out what is deeper", () => {
    expect(pruneToc(toc, 1)).toEqual([
      { id: "P1", title: "Partie 1", sections: [] },
      { id: "P2", title: "Partie 2", sections: [] },
    ]);
    expect(pruneToc(toc, 2)[0]!.sections).toEqual([{ id: "L1", title: "Livre 1", sections: [] }]);
    expect(pruneToc(toc, 3)).toEqual(toc);
  });
});
