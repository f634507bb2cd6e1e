// A minimal zip reader (central directory + stored/deflated entries), enough to look inside a
// .vsix without extra dependencies.
import * as zlib from "node:zlib";

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
  /** Unix mode bits from the "external attributes" (0 when the zip was not made on Unix). */
  unixMode: number;
}

export function listEntries(zip: Buffer): ZipEntry[] {
  // End of central directory: signature 0x06054b50, at most 64 KiB of comment after it.
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) {
    throw new Error("not a zip file: no end of central directory record");
  }
  const count = zip.readUInt16LE(eocd + 10);
  let offset = zip.readUInt32LE(eocd + 16);
  const entries: ZipEntry[] = [];
  for (let n = 0; n < count; n++) {
    if (zip.readUInt32LE(offset) !== 0x02014b50) {
      throw new Error(`bad central directory entry at ${offset}`);
    }
    const method = zip.readUInt16LE(offset + 10);
    const compressedSize = zip.readUInt32LE(offset + 20);
    const size = zip.readUInt32LE(offset + 24);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    const external = zip.readUInt32LE(offset + 38);
    const localHeaderOffset = zip.readUInt32LE(offset + 42);
    const name = zip.toString("utf8", offset + 46, offset + 46 + nameLength);
    entries.push({ name, method, compressedSize, size, localHeaderOffset, unixMode: external >>> 16 });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

export function readEntry(zip: Buffer, entry: ZipEntry): Buffer {
  const at = entry.localHeaderOffset;
  if (zip.readUInt32LE(at) !== 0x04034b50) {
    throw new Error(`bad local header for ${entry.name}`);
  }
  const start = at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28);
  const data = zip.subarray(start, start + entry.compressedSize);
  if (entry.method === 0) {
    return Buffer.from(data);
  }
  if (entry.method === 8) {
    return zlib.inflateRawSync(data);
  }
  throw new Error(`${entry.name}: unsupported compression method ${entry.method}`);
}
