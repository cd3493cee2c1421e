#!/usr/bin/env node
// One-off migration kept for one commit so it can be re-run after a merge: turns every class member
// marked with TypeScript's `private` into an ECMAScript private name (`#member`), the repository's one
// privacy style (scripts/lint/no-private-keyword.grit). References are found by TypeScript's language
// service, so `this.x`, `other.x` and `Class.x` all follow; a parameter property becomes a field
// assigned at the constructor's start. What it cannot rewrite (a reference that is not `a.x`) it
// prints and leaves alone.   node scripts/lint/private-to-hash.mjs && npx prettier --write <files>
import { Node, Project, SyntaxKind } from 'ts-morph';

const project = new Project({ tsConfigFilePath: 'tsconfig.json', skipAddingFilesFromTsConfig: false });
project.addSourceFilesFromTsConfig('emulator/console/page/tsconfig.json');
project.addSourceFilesFromTsConfig('examples/chat-ui/tsconfig.json');

const skipped = (path) => /\/(generated|dist|node_modules)\//.test(path) || path.includes('/test/fixtures/');
/** @type {Map<import('ts-morph').SourceFile, {start:number,end:number,text:string}[]>} */
const edits = new Map();
const manual = [];
function edit(node, start, end, text) {
  const file = node.getSourceFile();
  if (!edits.has(file)) edits.set(file, []);
  const list = edits.get(file);
  if (!list.some((e) => e.start === start && e.end === end && e.text === text)) list.push({ start, end, text });
}
function dropModifier(modifier) {
  const text = modifier.getSourceFile().getFullText();
  let end = modifier.getEnd();
  while (text[end] === ' ') end += 1;
  edit(modifier, modifier.getStart(), end, '');
}
function renameAccesses(nameNode, name, includeOthers) {
  for (const ref of nameNode.findReferencesAsNodes()) {
    const parent = ref.getParent();
    if (Node.isPropertyAccessExpression(parent) && parent.getNameNode() === ref) edit(ref, ref.getStart(), ref.getEnd(), `#${name}`);
    else if (includeOthers) manual.push(`${ref.getSourceFile().getFilePath()}:${ref.getStartLineNumber()} ${parent.getText().slice(0, 80)}`);
  }
}

for (const file of project.getSourceFiles()) {
  if (skipped(file.getFilePath())) continue;
  for (const cls of file.getDescendantsOfKind(SyntaxKind.ClassDeclaration).concat(file.getDescendantsOfKind(SyntaxKind.ClassExpression))) {
    for (const member of cls.getMembers()) {
      if (Node.isConstructorDeclaration(member)) {
        const inserts = [];
        for (const param of member.getParameters()) {
          const modifier = param.getModifiers().find((m) => m.getKind() === SyntaxKind.PrivateKeyword);
          if (!modifier) continue;
          const name = param.getName();
          const readonly = param.isReadonly();
          renameAccesses(param.getNameNode(), name, false);
          for (const m of param.getModifiers()) if ([SyntaxKind.PrivateKeyword, SyntaxKind.ReadonlyKeyword].includes(m.getKind())) dropModifier(m);
          const type = param.getTypeNode()?.getText() ?? param.getType().getText(param);
          const lineStart = file.getFullText().lastIndexOf('\n', member.getStart(true)) + 1;
          edit(member, lineStart, lineStart, `  ${readonly ? 'readonly ' : ''}#${name}: ${type};\n`);
          inserts.push(`this.#${name} = ${name};`);
        }
        if (inserts.length > 0) {
          const body = member.getBody();
          const first = body.getStatements()[0];
          const afterSuper = first?.getText().startsWith('super(') ? first.getEnd() : body.getStart() + 1;
          edit(member, afterSuper, afterSuper, `\n${inserts.join('\n')}\n`);
        }
        continue;
      }
      const modifier = member.getModifiers?.().find((m) => m.getKind() === SyntaxKind.PrivateKeyword);
      if (!modifier) continue;
      const nameNode = member.getNameNode();
      const name = member.getName();
      dropModifier(modifier);
      edit(nameNode, nameNode.getStart(), nameNode.getEnd(), `#${name}`);
      renameAccesses(nameNode, name, true);
    }
  }
}

for (const [file, list] of edits) {
  let text = file.getFullText();
  for (const e of list.sort((a, b) => b.start - a.start || b.end - a.end)) text = text.slice(0, e.start) + e.text + text.slice(e.end);
  file.replaceWithText(text);
  console.log(file.getFilePath());
}
await project.save();
for (const line of manual) console.error(`manual: ${line}`);
