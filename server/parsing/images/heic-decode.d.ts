/** Types of heic-decode 2 (the package ships none). */
declare module "heic-decode" {
  type DecodedImage = { width: number; height: number; data: Uint8ClampedArray };
  type HeicFrame = { width: number; height: number; decode: () => Promise<DecodedImage> };
  type HeicInput = { buffer: Uint8Array | ArrayBuffer };
  function decode(input: HeicInput): Promise<DecodedImage>;
  namespace decode {
    function all(input: HeicInput): Promise<HeicFrame[] & { dispose: () => void }>;
  }
  export = decode;
}
