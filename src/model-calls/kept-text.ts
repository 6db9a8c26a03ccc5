/** Text kept up to a byte limit (0: nothing kept), marked truncated past it. */
export class KeptText {
  private readonly parts: string[] = [];
  private bytes = 0;
  truncated = false;

  constructor(private readonly maxBytes: number) {}

  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  push(text: string): void {
    if (!this.enabled || this.truncated) return;
    const size = Buffer.byteLength(text);
    if (this.bytes + size <= this.maxBytes) {
      this.parts.push(text);
      this.bytes += size;
      return;
    }
    const room = this.maxBytes - this.bytes;
    this.parts.push(
      Buffer.from(text)
        .subarray(0, room)
        .toString('utf8')
        .replace(/\uFFFD$/, ''),
    );
    this.bytes = this.maxBytes;
    this.truncated = true;
  }

  text(): string {
    return this.parts.join('');
  }
}
