/**
 * A form built from an operation's parameter schema: strings, numbers and integers, booleans,
 * enums, nullable values, arrays, nested objects, a choice for `anyOf`/`oneOf`, and a raw-JSON
 * editor for anything else. Every control checks its value in the page, so a call is only sent
 * with input that matches the schema's types; each problem is shown beside its field.
 */
import type { Schema } from './api.js';
import { button, el } from './dom.js';
import { defaultText, schemaHints } from './schema-hints.js';

/** `undefined`: left empty (an optional field is then left out of the input). */
type Read = { readonly ok: true; readonly value: unknown } | { readonly ok: false };

interface Control {
  readonly element: HTMLElement;
  read(): Read;
  /** Puts a value in (top-level string fields, e.g. the picked session's id). */
  set?(value: string): void;
}

let nextId = 0;
const freshId = (): string => `f${++nextId}`;

function types(schema: Schema): string[] {
  const type = schema.type;
  return type === undefined ? [] : Array.isArray(type) ? [...(type as string[])] : [type as string];
}

const isNullable = (schema: Schema): boolean => schema.nullable === true || types(schema).includes('null');

/** The one non-null type, if the schema has exactly one. */
function mainType(schema: Schema): string | undefined {
  const list = types(schema).filter((t) => t !== 'null');
  return list.length === 1 ? list[0] : undefined;
}

/** A short name for a schema, shown beside a field and in a choice. */
export function describeType(schema: Schema): string {
  if (schema.enum !== undefined) return 'enum';
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives !== undefined) return alternatives.map(describeType).join(' | ');
  const type = mainType(schema);
  if (type === 'array') return schema.items === undefined ? 'array' : `${describeType(schema.items)}[]`;
  return type ?? 'JSON';
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * One labelled field: the control, its description, what the schema accepts (default, pattern,
 * bounds), its error line, and a `null` switch when nullable.
 */
class Field {
  readonly element: HTMLElement;
  readonly #error = el('small', { className: 'error' });
  readonly #nullBox: HTMLInputElement | undefined;

  readonly #control: Control;
  constructor(
    readonly name: string,
    readonly required: boolean,
    schema: Schema,
    control: Control,
    labelFor: string | undefined,
  ) {
    this.#control = control;

    const label = el('label', {}, el('span', { className: 'name' }, name), ' ', el('span', { className: 'type' }, describeType(schema)));
    if (labelFor !== undefined) label.htmlFor = labelFor;
    if (required) label.append(' ', el('span', { className: 'required' }, 'required'));
    if (isNullable(schema)) {
      const box = el('input');
      box.type = 'checkbox';
      box.addEventListener('change', () => control.element.classList.toggle('disabled', box.checked));
      this.#nullBox = box;
      label.append(' ', el('label', { className: 'null' }, box, 'null'));
    }
    const hints = schemaHints(schema);
    const notes = [
      schema.description === undefined ? null : el('small', { className: 'desc', id: freshId() }, schema.description),
      hints.length === 0 ? null : el('small', { className: 'hint', id: freshId() }, hints.join(' · ')),
    ].filter((note) => note !== null);
    // A screen reader reads the description and the hints with the labelled control.
    const labelled = labelFor === undefined ? null : control.element.id === labelFor ? control.element : control.element.querySelector(`#${labelFor}`);
    if (labelled !== null && notes.length > 0) labelled.setAttribute('aria-describedby', notes.map((note) => note.id).join(' '));
    this.element = el('div', { className: 'field', 'data-field': name }, label, control.element, ...notes, this.#error);
  }

  /** The control's value (`null` when switched to null), `undefined` when left empty; false (and an error shown) when invalid. */
  read(): Read {
    this.#error.textContent = '';
    if (this.#nullBox?.checked === true) return { ok: true, value: null };
    return this.#control.read();
  }

  fail(message: string): Read {
    this.#error.textContent = message;
    this.element.classList.add('invalid');
    return { ok: false };
  }

  clear(): void {
    this.element.classList.remove('invalid');
  }

  set(value: string): boolean {
    if (this.#control.set === undefined) return false;
    this.#control.set(value);
    return true;
  }

  /** A control's own error goes to this field's error line. */
  failed(message: string): Read {
    return this.fail(message);
  }
}

/**
 * Where a control's element goes and what names it: the field's `<label for=id>`, or, for a
 * control no label points at (an alternative of a choice, an item of a list), `name`, as its
 * `aria-label`.
 */
interface Place {
  readonly id: string;
  readonly name: string;
  readonly labelled: boolean;
}

/** Gives a form element its id, and its accessible name when no `<label for>` names it. */
function placed<E extends HTMLElement>(element: E, place: Place): E {
  element.id = place.id;
  if (!place.labelled) element.setAttribute('aria-label', place.name);
  return element;
}

/** A place no label points at, named `name`. */
const unlabelled = (name: string): Place => ({ id: freshId(), name, labelled: false });

/** The control for a schema; `report` shows a message on the enclosing field. */
function control(schema: Schema, place: Place, report: (message: string) => void): Control {
  if (schema.enum !== undefined) return enumControl(schema.enum, place);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives !== undefined && alternatives.length > 0) return choiceControl(alternatives, place, report);
  switch (mainType(schema)) {
    case 'string':
      return stringControl(schema, place);
    case 'number':
    case 'integer':
      return numberControl(schema, mainType(schema) === 'integer', place, report);
    case 'boolean':
      return booleanControl(place);
    case 'array':
      return schema.items === undefined ? jsonControl(schema, place, report) : arrayControl(schema.items, place.name, report);
    case 'object':
      return schema.properties === undefined ? jsonControl(schema, place, report) : objectControl(schema);
    default:
      return jsonControl(schema, place, report);
  }
}

function stringControl(schema: Schema, place: Place): Control {
  const input = placed(el('input', { className: 'string' }), place);
  input.type = 'text';
  input.autocomplete = 'off';
  // Left empty, the field is left out and the handler applies the default: the placeholder shows it.
  input.placeholder = defaultText(schema) ?? '';
  return {
    element: input,
    read: () => ({ ok: true, value: input.value === '' ? undefined : input.value }),
    set: (value) => {
      input.value = value;
    },
  };
}

function numberControl(schema: Schema, integer: boolean, place: Place, report: (message: string) => void): Control {
  const input = placed(el('input', { className: 'number' }), place);
  input.type = 'text';
  input.inputMode = integer ? 'numeric' : 'decimal';
  input.placeholder = defaultText(schema) ?? '';
  return {
    element: input,
    read: () => {
      const text = input.value.trim();
      if (text === '') return { ok: true, value: undefined };
      const value = Number(text);
      if (!Number.isFinite(value)) return (report(`not a number: ${text}`), { ok: false });
      if (integer && !Number.isInteger(value)) return (report(`not an integer: ${text}`), { ok: false });
      return { ok: true, value };
    },
  };
}

function selectOf(place: Place, labels: readonly string[]): HTMLSelectElement {
  const select = placed(el('select'), place);
  labels.forEach((label, index) => {
    const option = el('option', {}, label);
    option.value = String(index);
    select.append(option);
  });
  return select;
}

function booleanControl(place: Place): Control {
  const select = selectOf(place, ['(not set)', 'true', 'false']);
  return { element: select, read: () => ({ ok: true, value: [undefined, true, false][Number(select.value)] }) };
}

function enumControl(values: readonly unknown[], place: Place): Control {
  const select = selectOf(place, ['(not set)', ...values.map((value) => JSON.stringify(value))]);
  return { element: select, read: () => ({ ok: true, value: select.value === '0' ? undefined : values[Number(select.value) - 1] }) };
}

function jsonControl(schema: Schema, place: Place, report: (message: string) => void): Control {
  const area = placed(el('textarea', { className: 'json' }), place);
  area.rows = 3;
  area.spellcheck = false;
  const shape = mainType(schema) === 'array' ? '[ … ] (JSON)' : mainType(schema) === 'object' ? '{ … } (JSON)' : 'JSON';
  area.placeholder = 'default' in schema && schema.default !== undefined ? JSON.stringify(schema.default) : shape;
  return {
    element: area,
    read: () => {
      const text = area.value.trim();
      if (text === '') return { ok: true, value: undefined };
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        return (report(`not JSON: ${(error as Error).message}`), { ok: false });
      }
      const type = mainType(schema);
      if (type === 'object' && !isPlainObject(value)) return (report('must be a JSON object'), { ok: false });
      if (type === 'array' && !Array.isArray(value)) return (report('must be a JSON array'), { ok: false });
      if (type === 'string' && typeof value !== 'string') return (report('must be a JSON string'), { ok: false });
      return { ok: true, value };
    },
  };
}

function choiceControl(alternatives: readonly Schema[], place: Place, report: (message: string) => void): Control {
  const names = alternatives.map((alternative) =>
    mainType(alternative) === 'object' && alternative.properties === undefined ? 'object (JSON)' : describeType(alternative),
  );
  const select = selectOf(place, names);
  // Each alternative's box is named after the field and the alternative: `message (string)`.
  const controls = alternatives.map((alternative, index) => control(alternative, unlabelled(`${place.name} (${names[index]})`), report));
  const body = el('div', { className: 'choice-body' });
  const show = (): void => {
    body.replaceChildren(controls[Number(select.value)]?.element ?? '');
  };
  select.addEventListener('change', show);
  show();
  const picked = (): Control | undefined => controls[Number(select.value)];
  return {
    element: el('div', { className: 'choice' }, select, body),
    read: () => picked()?.read() ?? { ok: true, value: undefined },
    set: (value) => picked()?.set?.(value),
  };
}

function arrayControl(items: Schema, name: string, report: (message: string) => void): Control {
  const rows: Array<{ readonly row: HTMLElement; readonly control: Control }> = [];
  const list = el('div', { className: 'items' });
  const add = button(
    '+ item',
    () => {
      const itemControl = control(items, unlabelled(`${name} item`), report);
      const entry = { row: el('div', { className: 'item' }), control: itemControl };
      entry.row.append(
        itemControl.element,
        button(
          '×',
          () => {
            rows.splice(rows.indexOf(entry), 1);
            entry.row.remove();
          },
          'small',
        ),
      );
      rows.push(entry);
      list.append(entry.row);
    },
    'small',
  );
  return {
    element: el('div', { className: 'array' }, list, add),
    read: () => {
      if (rows.length === 0) return { ok: true, value: undefined };
      const values: unknown[] = [];
      for (const [index, { control: item }] of rows.entries()) {
        const result = item.read();
        if (!result.ok) return result;
        if (result.value === undefined) return (report(`item ${index + 1} is empty`), { ok: false });
        values.push(result.value);
      }
      return { ok: true, value: values };
    },
  };
}

function objectControl(schema: Schema): Control {
  const form = new SchemaForm(schema, 'nested');
  return { element: form.element, read: () => form.readOptional(true) };
}

/** The form for one object schema: one field per property, in declared order. */
export class SchemaForm {
  readonly element: HTMLElement;
  readonly #fields: Field[] = [];

  constructor(schema: Schema, className = 'form') {
    const required = new Set(schema.required ?? []);
    this.element = el('div', { className });
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      const id = freshId();
      let field: Field | undefined;
      const report = (message: string): void => void field?.failed(message);
      field = new Field(name, required.has(name), property, control(property, { id, name, labelled: true }, report), id);
      this.#fields.push(field);
      this.element.append(field.element);
    }
    if (this.#fields.length === 0) this.element.append(el('p', { className: 'muted' }, 'No parameters.'));
  }

  /** Fills a top-level field when the form has it (user_id, session_id). */
  set(name: string, value: string): void {
    this.#fields.find((field) => field.name === name)?.set(value);
  }

  has(name: string): boolean {
    return this.#fields.some((field) => field.name === name);
  }

  /** The input object, or undefined when a field is invalid (each problem is shown at its field). */
  read(): Record<string, unknown> | undefined {
    const result = this.readOptional(false);
    return result.ok ? (result.value as Record<string, unknown>) : undefined;
  }

  /**
   * The object of the filled fields. With `optionalWhole` (a nested object), all fields empty
   * gives `undefined`, so the enclosing field decides whether it may be left out.
   */
  readOptional(optionalWhole: boolean): Read {
    const value: Record<string, unknown> = {};
    const missing: Field[] = [];
    let ok = true;
    for (const field of this.#fields) {
      field.clear();
      const result = field.read();
      if (!result.ok) ok = false;
      else if (result.value !== undefined) value[field.name] = result.value;
      else if (field.required) missing.push(field);
    }
    if (ok && optionalWhole && Object.keys(value).length === 0) return { ok: true, value: undefined };
    for (const field of missing) field.fail('required');
    return ok && missing.length === 0 ? { ok: true, value } : { ok: false };
  }
}
