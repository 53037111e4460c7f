/** Which run the Evaluation tab shows and which (up to two) it compares; the editor keeps it in the URL. */
export type EvaluationSelection = { view: string | null; compare: string[] };
