/**
 * The one way the console puts anything in the DOM: elements made with createElement and text set
 * with textContent. Values from the API are never parsed as HTML.
 */
type Child = Node | string | null | undefined | false;

export interface Props {
  readonly className?: string;
  readonly title?: string;
  readonly id?: string;
  readonly [attribute: `data-${string}`]: string | undefined;
}

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined) continue;
    if (key === 'className') node.className = value;
    else if (key === 'title') node.title = value;
    else if (key === 'id') node.id = value;
    else node.setAttribute(key, value);
  }
  append(node, ...children);
  return node;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

export function button(label: string, onClick: () => void, className = ''): HTMLButtonElement {
  const node = el('button', { className });
  node.type = 'button';
  node.textContent = label;
  node.addEventListener('click', onClick);
  return node;
}

export function byId<T extends HTMLElement>(id: string): T {
  const node = document.getElementById(id);
  if (node === null) throw new Error(`the console page has no #${id}`);
  return node as T;
}

/** JSON as people read it: two-space indent. */
export function pretty(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? String(value);
}

/** JSON on one line, spaced as people write it (`{"city": "Paris"}`); long values fall back to `pretty`. */
export function inline(value: unknown): string {
  const text = oneLine(value);
  return text.length <= 120 ? text : pretty(value);
}

function oneLine(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(oneLine).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}: ${oneLine(item)}`)
      .join(', ')}}`;
  }
  return JSON.stringify(value) ?? String(value);
}
