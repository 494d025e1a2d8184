#!/usr/bin/env node
/**
 * Size check, run by `npm run lint`: no git-tracked `src/**\/*.ts` file over MAX_FILE_LINES lines and no function
 * (declaration, method, arrow or function expression) over MAX_FUNCTION_LINES lines, counted from the line its
 * signature starts on to the line of its closing brace. Prints each as `file:line name (N lines)` and exits 1.
 *   node scripts/check-sizes.mjs
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import ts from 'typescript';

const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 80;

const files = execFileSync('git', ['ls-files', '-z', 'src'], { encoding: 'utf8' })
  .split('\0')
  .filter((file) => file.endsWith('.ts'));

/** The name a reader would look for: the function's own, else the variable, property or method it is bound to. */
function nameOf(node) {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && parent.name)
    return parent.name.getText();
  return '(anonymous)';
}

const problems = [];
let functions = 0;
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  if (lines > MAX_FILE_LINES) problems.push(`${file}: ${lines} lines (at most ${MAX_FILE_LINES}); split it by concern`);
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    if (
      ts.isFunctionDeclaration(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isArrowFunction(node) ||
      ts.isFunctionExpression(node) ||
      ts.isConstructorDeclaration(node) ||
      ts.isGetAccessorDeclaration(node) ||
      ts.isSetAccessorDeclaration(node)
    ) {
      functions++;
      const start = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const length = end - start + 1;
      if (length > MAX_FUNCTION_LINES)
        problems.push(`${file}:${start + 1} ${nameOf(node)} (${length} lines, at most ${MAX_FUNCTION_LINES})`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}
for (const problem of problems) console.error(problem);
if (problems.length > 0) process.exit(1);
console.log(`sizes: ${files.length} files in src/, ${functions} functions, none over its limit`);
