import type { ParsedElement } from "../types";

/** Elements per message at most. */
export const ELEMENT_BATCH = 200;

/**
 * Characters per message, about: a batch of a 100 MB spreadsheet's tables was 12 MB, and the app's one insert of it
 * grew the app's heap and the embedded database's memory (which never shrinks) by several times that.
 */
export const ELEMENT_BATCH_BYTES = 1024 * 1024;

/** What an element weighs in a batch: its strings, which are nearly all of it. */
export const elementSize = (element: ParsedElement): number =>
  element.text.length +
  (element.html?.length ?? 0) +
  (element.markdown?.length ?? 0) +
  (element.imgBase64?.length ?? 0) +
  (element.metadata ? 256 : 0) +
  64;

/**
 * Elements go to the app in batches of at most ELEMENT_BATCH elements and about ELEMENT_BATCH_BYTES characters (a
 * batch closes with the element that reaches the size), one batch in flight: `deliver` resolves once the app stored
 * it. An element larger than the bound travels alone.
 */
export const batchSender = (deliver: (elements: ParsedElement[], first: number) => Promise<void>) => {
  let batch: ParsedElement[] = [];
  let size = 0;
  let sent = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const elements = batch;
    batch = [];
    size = 0;
    const first = sent;
    sent += elements.length;
    await deliver(elements, first);
  };
  return {
    add: async (element: ParsedElement) => {
      batch.push(element);
      size += elementSize(element);
      if (batch.length >= ELEMENT_BATCH || size >= ELEMENT_BATCH_BYTES) await flush();
    },
    flush,
  };
};
