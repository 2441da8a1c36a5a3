/**
 * Percent-encoding shared by parse and stringify.
 *
 * encodeComponent follows RFC 3986: everything but unreserved characters is
 * escaped, including the !'()* that encodeURIComponent leaves alone.
 * decodeComponent never throws: text with a malformed escape is returned as
 * it was sent.
 */
export function encodeComponent(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
}

export function decodeComponent(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
