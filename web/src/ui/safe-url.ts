/**
 * The links a model may write that the console will follow: http(s), mailto, and links inside the
 * console. Anything with another scheme (javascript:, data:, vbscript:…) or protocol-relative
 * (`//host`) becomes an empty href. Browsers ignore tabs and newlines inside a scheme, so those
 * are removed before looking.
 */
export function safeUrl(url: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is stripped
  const squeezed = url.replace(/[\u0000-\u0020]/g, '');
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(squeezed);
  if (scheme) return /^(https?|mailto)$/i.test(scheme[1]) ? url.trim() : '';
  return squeezed.startsWith('//') || squeezed.startsWith('\\') ? '' : url.trim();
}
