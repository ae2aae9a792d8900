// The parts of the `radius` package (node-radius, no types of its own) Mlango uses.
declare module "radius" {
  type Attributes = Record<string, unknown>;
  interface Decoded {
    code: string;
    identifier: number;
    length: number;
    attributes: Attributes;
    raw_attributes: [number, Buffer][];
  }
  const radius: {
    add_dictionary(file: string): void;
    encode(args: { code: string; secret: string; identifier?: number; attributes: unknown[]; add_message_authenticator?: boolean }): Buffer;
    encode_response(args: { packet: Decoded; code: string; secret: string; attributes?: unknown[] }): Buffer;
    decode(args: { packet: Buffer; secret: string }): Decoded;
    decode_without_secret(args: { packet: Buffer }): Decoded;
    verify_response(args: { response: Buffer; request: Buffer; secret: string }): boolean;
  };
  export default radius;
}
