import { expect } from 'vitest'

/** Asserts that element's text content has each of texts (toHaveTextContent, one after the other). */
export function expectTextContents(element: HTMLElement, texts: (string | RegExp)[]) {
  for (const text of texts) expect(element).toHaveTextContent(text)
}
