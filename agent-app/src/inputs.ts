/**
 * Reading an operation's `input` defensively. The generated server validates inputs before
 * a handler runs, but AgentApp is also called directly (tests, custom wrappers), so every
 * argument it relies on is checked here once, with an error that names the operation and
 * the argument.
 */
import { checkDepth } from './depth.js';
import { invalidArgument } from './errors.js';
import { checkId } from './ids.js';
import { type Content, contentFromWire } from './wire.js';

export type Input = Readonly<Record<string, unknown>>;

/**
 * The input object itself: absent means `{}`, anything else must be an object, nested no
 * deeper than `maxInputDepth` (checked once here, so nothing after it can overflow the stack).
 */
export function inputObject(input: unknown, operation: string): Input {
  if (input === undefined || input === null) return {};
  if (typeof input !== 'object' || Array.isArray(input)) {
    throw invalidArgument(`${operation}: input must be an object of keyword arguments.`);
  }
  checkDepth(input, `${operation}: input`);
  return input as Input;
}

export function requiredString(input: Input, key: string, operation: string): string {
  const value = input[key];
  if (typeof value !== 'string' || value === '') {
    throw invalidArgument(`${operation}: ${key} is required and must be a non-empty string.`);
  }
  return value;
}

/** A nullable optional string: absent, null and '' all mean "not given". */
export function optionalString(input: Input, key: string, operation: string): string | undefined {
  const value = input[key];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw invalidArgument(`${operation}: ${key} must be a string when given.`);
  return value;
}

/** A required id (`user_id`, `session_id`): a non-empty string within the rules of ids.ts. */
export function requiredId(input: Input, key: string, operation: string): string {
  return checkId(requiredString(input, key, operation), `${operation}: ${key}`);
}

/** An optional id: absent, null and '' mean "not given"; otherwise as `requiredId`. */
export function optionalId(input: Input, key: string, operation: string): string | undefined {
  const value = optionalString(input, key, operation);
  return value === undefined ? undefined : checkId(value, `${operation}: ${key}`);
}

export function optionalObject(input: Input, key: string, operation: string): Record<string, unknown> | undefined {
  const value = input[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw invalidArgument(`${operation}: ${key} must be an object when given.`);
  }
  return value as Record<string, unknown>;
}

export function optionalArray(input: Input, key: string, operation: string): readonly unknown[] | undefined {
  const value = input[key];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw invalidArgument(`${operation}: ${key} must be an array when given.`);
  return value;
}

/**
 * The user message of a turn: text becomes a user content; an object is a content (either
 * spelling). A turn needs at least one part, or ADK has nothing to answer.
 */
export function messageContent(message: unknown, operation: string, where = 'message'): Content {
  let content: Content;
  if (typeof message === 'string') {
    content = { role: 'user', parts: [{ text: message }] };
  } else if (typeof message === 'object' && message !== null && !Array.isArray(message)) {
    content = contentFromWire(message, `${operation}: ${where}`);
  } else {
    throw invalidArgument(`${operation}: ${where} is required: a string or a content object with role and parts.`);
  }
  if (!content.parts || content.parts.length === 0) {
    throw invalidArgument(`${operation}: ${where} has no parts.`);
  }
  return { ...content, role: content.role ?? 'user' };
}
