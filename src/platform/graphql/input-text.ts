import { type ASTNode, type DocumentNode, Kind, visit } from 'graphql';
import { UploadedFile } from '../lib/uploaded-file.ts';

// The one rule for text input (DESIGN §9): NUL and the other C0 control characters, except tab, line feed and
// carriage return, are refused with 400 naming the field — in variables (REST routes build theirs the same way),
// in string literals of the document, and in the names of uploaded files. Postgres cannot store NUL in text, and
// nothing a partner sends has a reason to carry the others. So is half of a UTF-16 surrogate pair (JSON's
// "\udfff"): it is not a character, and the database's UTF-8 conversion can turn it into bytes Postgres refuses.

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export interface TextProblem {
  field: string;
  problem: string;
}

/** The first string in the variables or in the document's literals that holds a control character. */
export function textProblem(variables: unknown, document?: DocumentNode): TextProblem | null {
  return inValue(variables, '') ?? (document ? inLiterals(document) : null);
}

/** The problem with one text value, for inputs that do not go through GraphQL (HTML forms). */
export function textValueProblem(text: string): string | null {
  const control = CONTROL.exec(text);
  if (control) return `must not contain control characters (found ${codePoint(control[0])})`;
  const half = LONE_SURROGATE.exec(text);
  return half ? `must be valid Unicode text (found an unpaired surrogate ${codePoint(half[0])})` : null;
}

const codePoint = (ch: string) => `U+${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

/** Walks a JSON-like value iteratively (a deeply nested body cannot exhaust the stack). */
function inValue(root: unknown, rootPath: string): TextProblem | null {
  const stack: Array<[unknown, string]> = [[root, rootPath]];
  while (stack.length) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      const problem = textValueProblem(value);
      if (problem) return { field: path || 'value', problem };
    } else if (value instanceof UploadedFile) {
      const problem = value.filename === null ? null : textValueProblem(value.filename);
      if (problem) return { field: path || 'file', problem: `file name ${problem}` };
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], `${path}[${i}]`]);
    } else if (value && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        const keyProblem = textValueProblem(key);
        if (keyProblem) return { field: path || 'value', problem: `has a key that ${keyProblem}` };
        stack.push([child, path ? `${path}.${key}` : key]);
      }
    }
  }
  return null;
}

const literalsChecked = new WeakMap<DocumentNode, TextProblem | null>();

/** String literals in arguments (`"a\u0000b"` is a valid GraphQL string), named by argument and input field. */
function inLiterals(document: DocumentNode): TextProblem | null {
  const known = literalsChecked.get(document);
  if (known !== undefined) return known;
  let found: TextProblem | null = null;
  const names: string[] = [];
  visit(document, {
    enter(node: ASTNode) {
      if (found) return false;
      if (node.kind === Kind.ARGUMENT || node.kind === Kind.OBJECT_FIELD) names.push(node.name.value);
      if (node.kind === Kind.STRING) {
        const problem = textValueProblem(node.value);
        if (problem) found = { field: names.join('.') || 'query', problem };
      }
      return undefined;
    },
    leave(node: ASTNode) {
      if (node.kind === Kind.ARGUMENT || node.kind === Kind.OBJECT_FIELD) names.pop();
    },
  });
  literalsChecked.set(document, found);
  return found;
}
