/**
 * Finds the places a source reads `process.env` (the TypeScript AST, so comments and strings that
 * merely mention it do not count). Only packages/config reads the environment; elsewhere a read is
 * either handing the whole environment on to a child process — `{ ...process.env, … }`,
 * `env: process.env`, `PATH: process.env.PATH` — which reads no setting of ours, or a setting read
 * outside the config package, which tests/src/process-env-readers.test.ts allows only by name.
 */
import ts from 'typescript';

export interface ProcessEnvRead {
  line: number;
  /** The environment handed on whole (or only its PATH), as a child process's. */
  passedOn: boolean;
}

function isProcessEnv(node: ts.Node): node is ts.PropertyAccessExpression {
  return (
    ts.isPropertyAccessExpression(node) &&
    node.name.text === 'env' &&
    ts.isIdentifier(node.expression) &&
    node.expression.text === 'process'
  );
}

function passedOn(node: ts.PropertyAccessExpression): boolean {
  const parent = node.parent;
  if (ts.isSpreadAssignment(parent)) return true;
  if (ts.isPropertyAssignment(parent) && parent.initializer === node) {
    return ts.isIdentifier(parent.name) && parent.name.text === 'env';
  }
  return ts.isPropertyAccessExpression(parent) && parent.name.text === 'PATH';
}

export function findProcessEnvReads(source: string, fileName = 'source.ts'): ProcessEnvRead[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const reads: ProcessEnvRead[] = [];
  const visit = (node: ts.Node): void => {
    if (isProcessEnv(node)) {
      const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
      reads.push({ line: line + 1, passedOn: passedOn(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return reads;
}
