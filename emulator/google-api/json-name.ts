/**
 * A proto field name (`user_id`) as ProtoJSON's lowerCamel (`userId`); a lowerCamel name is kept.
 * ProtoJSON accepts either spelling of a field in a body and of a path in a FieldMask, so bodies
 * (proto/fields.ts, proto/proto-check.ts) and update masks (update-mask.ts) read names through it.
 */
export const snakeToCamel = (name: string): string => name.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
