/**
 * `npm run reactions`: the README's table of reactions, read from the code. Every `app.events.react`
 * (a durable listener: its job row is written in the event's own transaction), every
 * `app.events.on` (a live listener, after commit), every job kind (`app.jobs.define`,
 * `app.staffNotices.define`, `app.jobs.every`) is found in api/ by the TypeScript parser, so a reaction
 * added anywhere is listed without anyone remembering to. `--check` (part of `npm run lint`) fails when
 * the README's table is not what the code says.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const root = process.cwd();
const readmePath = join(root, 'README.md');
const start = '<!-- reactions:start (npm run reactions writes this table) -->';
const end = '<!-- reactions:end -->';

interface Reaction {
  event: string;
  durable: boolean;
  /** The job kinds a durable reaction promises; the function a live one runs in. */
  does: string;
  where: string;
}

interface JobKind {
  kind: string;
  jobClass: string;
  where: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** `a.b.c` of a call's callee, or undefined when it is not a plain chain of names. */
function calleePath(expression: ts.Expression): string | undefined {
  if (ts.isIdentifier(expression)) return expression.text;
  if (expression.kind === ts.SyntaxKind.ThisKeyword) return 'this';
  if (ts.isPropertyAccessExpression(expression)) {
    const left = calleePath(expression.expression);
    return left === undefined ? undefined : `${left}.${expression.name.text}`;
  }
  return undefined;
}

const literal = (node: ts.Node | undefined) => (node && ts.isStringLiteralLike(node) ? node.text : undefined);

/** The name of the function (declaration, method or `const x = () =>`) a node is in. */
function enclosingName(node: ts.Node): string | undefined {
  for (let at = node.parent; at; at = at.parent) {
    if ((ts.isFunctionDeclaration(at) || ts.isMethodDeclaration(at)) && at.name) return at.name.getText();
    if ((ts.isArrowFunction(at) || ts.isFunctionExpression(at)) && ts.isVariableDeclaration(at.parent)) return at.parent.name.getText();
  }
  return undefined;
}

function scan(file: string, reactions: Reaction[], jobs: JobKind[]): void {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const where = relative(root, file);
  /** Local names bound to a defined job kind (`const mail = app.jobs.define('kind', ...)`), and local functions' bodies. */
  const kindOf = new Map<string, string>();
  const localBodies = new Map<string, ts.Node>();
  const reacts: { event: string; listener: ts.Node; durable: boolean; call: ts.CallExpression }[] = [];

  const visit = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && node.initializer) {
      if (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer)) localBodies.set(node.name.getText(), node.initializer);
    }
    if (ts.isFunctionDeclaration(node) && node.name && node.body) localBodies.set(node.name.text, node.body);
    if (ts.isCallExpression(node)) {
      const path = calleePath(node.expression) ?? '';
      const [first, second] = node.arguments;
      if (/\.events\.(react|on)$/.test(path) && literal(first) && second) {
        reacts.push({ event: literal(first)!, listener: second, durable: path.endsWith('.react'), call: node });
      } else if (/\.(jobs|staffNotices)\.define$/.test(path) && literal(first)) {
        const kind = literal(first)!;
        let jobClass = 'mail (a staff notice, in the notices budget)';
        if (path.endsWith('.jobs.define') && second && ts.isObjectLiteralExpression(second)) {
          const property = second.properties.find((each) => each.name?.getText() === 'class');
          jobClass = (property && ts.isPropertyAssignment(property) && literal(property.initializer)) || '?';
        }
        jobs.push({ kind, jobClass, where });
        const holder = node.parent;
        if (ts.isVariableDeclaration(holder)) kindOf.set(holder.name.getText(), kind);
        if (ts.isBinaryExpression(holder)) kindOf.set(holder.left.getText(), kind);
      } else if (/\.jobs\.every$/.test(path) && literal(first)) {
        jobs.push({ kind: literal(first)!, jobClass: 'maintenance (periodic)', where });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);

  /** The job kinds requested in `node`, following calls of local functions one level down. */
  const requested = (node: ts.Node, depth = 0): string[] => {
    const found: string[] = [];
    const look = (at: ts.Node) => {
      if (ts.isCallExpression(at)) {
        const path = calleePath(at.expression) ?? '';
        const match = /^(.+)\.request$/.exec(path);
        if (match && kindOf.has(match[1]!)) found.push(kindOf.get(match[1]!)!);
        const local = localBodies.get(path);
        if (local && depth === 0) found.push(...requested(local, 1));
      }
      ts.forEachChild(at, look);
    };
    look(node);
    return [...new Set(found)];
  };

  /** A listener written inline in a plugin: what it pushes or counts, else its first statement. */
  const describeInline = (listener: ts.Node): string => {
    const pushes: string[] = [];
    let counts = false;
    const look = (at: ts.Node) => {
      if (ts.isCallExpression(at)) {
        const path = calleePath(at.expression) ?? '';
        if (path.endsWith('.emit') && literal(at.arguments[0])) pushes.push(`pushes \`${literal(at.arguments[0])}\``);
        if (/\.(inc|observe)$/.test(path)) counts = true;
      }
      ts.forEachChild(at, look);
    };
    look(listener);
    if (pushes.length > 0) return pushes.join(', ');
    if (counts) return 'a metric (`/metrics`)';
    const body = ts.isArrowFunction(listener) || ts.isFunctionExpression(listener) ? listener.body : listener;
    const first = ts.isBlock(body) ? body.statements[0] : body;
    return `\`${(first?.getText() ?? '').replace(/\s+/g, ' ').replace(/\|/g, '\\|').slice(0, 70)}\``;
  };

  for (const { event, listener, durable, call } of reacts) {
    const kinds = durable ? requested(listener) : [];
    const named = enclosingName(call);
    const does = kinds.length > 0 ? kinds.map((kind) => `job \`${kind}\``).join(', ') : named ? `\`${named}\`` : describeInline(listener);
    reactions.push({ event, durable, does, where });
  }
}

function reactionsTable(): string {
  const reactions: Reaction[] = [];
  const jobs: JobKind[] = [];
  for (const file of sourceFiles(join(root, 'api')).sort()) scan(file, reactions, jobs);
  reactions.sort((a, b) => a.event.localeCompare(b.event) || Number(b.durable) - Number(a.durable) || a.where.localeCompare(b.where));
  jobs.sort((a, b) => a.kind.localeCompare(b.kind));
  const promisedBy = (kind: string) =>
    [...new Set(reactions.filter((each) => each.durable && each.does.includes(`\`${kind}\``)).map((each) => `\`${each.event}\``))].join(', ') ||
    'its module (a write, a route or another job)';
  return [
    start,
    '',
    '| event | reaction | when | where |',
    '| --- | --- | --- | --- |',
    ...reactions.map((each) => `| \`${each.event}\` | ${each.does} | ${each.durable ? 'durable: in the write' : 'live: after commit'} | \`${each.where}\` |`),
    '',
    '| job kind | class | promised by | where |',
    '| --- | --- | --- | --- |',
    ...jobs.map((each) => `| \`${each.kind}\` | ${each.jobClass} | ${promisedBy(each.kind)} | \`${each.where}\` |`),
    '',
    end,
  ].join('\n');
}

function main(): number {
  const readme = readFileSync(readmePath, 'utf8');
  const from = readme.indexOf(start);
  const to = readme.indexOf(end);
  if (from < 0 || to < from) {
    console.error(`README.md has no reactions table: add the two lines ${start} and ${end} where it goes.`);
    return 1;
  }
  const updated = readme.slice(0, from) + reactionsTable() + readme.slice(to + end.length);
  if (process.argv.includes('--check')) {
    if (updated === readme) return 0;
    console.error('README.md: the reactions table is not what the code says. Run `npm run reactions` and commit the README.');
    return 1;
  }
  if (updated !== readme) writeFileSync(readmePath, updated);
  return 0;
}

process.exitCode = main();
