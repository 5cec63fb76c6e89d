import fc from 'fast-check';
import { fileBytes, type FileRecipe, fileRecipeWithOversize, type FuzzDocuments } from './files.ts';
import { Huge, toText } from './wire.ts';

// multipart/form-data written by hand, so every part of it can be wrong: the boundary (odd characters, 70, 200 and
// 201 characters, missing, or not the one the body uses), the ending (unclosed, cut short, bare LF line ends), the
// parts (duplicated, missing, unnamed, a file where text goes and text where a file goes), and the file names
// (quotes, CR LF header injection, NUL, path traversal, 10,000 characters).

export interface FormPart {
  name: string;
  /** Set for a file part. */
  filename?: string | Huge;
  contentType?: string;
  content: { text: unknown } | { file: FileRecipe };
}

export interface MultipartForm {
  boundary: string;
  /** The Content-Type header sent (its boundary may differ from the body's). */
  contentType: string;
  parts: FormPart[];
  ending: 'closed' | 'unclosed' | 'truncated' | 'lf';
  /** Where a truncated body is cut, as a share of its length. */
  cutAt: number;
}

export const fileName: fc.Arbitrary<string | Huge> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('invoice.pdf', 'scan.png', 'receipt.jpg', 'photo.webp', 'sales.csv', 'x') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '../../../../etc/passwd',
      'a\u0000b.pdf',
      'a"b.pdf',
      'a\r\nContent-Type: text/html\r\n\r\nx.pdf',
      'é 文字.pdf',
      '',
      '%00.pdf',
      'CON',
      '.',
      '\u202egnp.exe',
      'a\u001b[31m.pdf',
      'C:\\Windows\\win.ini',
      'a;b=c.pdf',
      '\ud800.pdf',
    ),
  },
  { weight: 1, arbitrary: fc.constant(new Huge('a', 10_000)) },
);

const partContentType = fc.constantFrom(
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/webp',
  'application/octet-stream',
  'text/plain',
  'text/csv',
  '',
  'a/b/c',
  'application/pdf; charset=\u00ff',
);

const boundaryArb = fc.oneof(
  { weight: 6, arbitrary: fc.stringMatching(/^[A-Za-z0-9]{1,40}$/).map((s) => `----fuzz${s}`) },
  { weight: 2, arbitrary: fc.constantFrom('x', "'()+_,-./:=?", 'a b', '--', '=', 'b'.repeat(70), 'b'.repeat(200), 'b'.repeat(201), 'b'.repeat(5000), 'é') },
);

const contentTypeFor = (boundary: string) =>
  fc.oneof(
    { weight: 10, arbitrary: fc.constant(`multipart/form-data; boundary=${boundary}`) },
    { weight: 1, arbitrary: fc.constant(`multipart/form-data; boundary="${boundary}"`) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        'multipart/form-data',
        'multipart/form-data; boundary=',
        'multipart/form-data; boundary=other-boundary',
        `multipart/mixed; boundary=${boundary}`,
        `Multipart/Form-Data; BOUNDARY=${boundary}`,
        `multipart/form-data; charset=utf-8; boundary=${boundary}; boundary=second`,
      ),
    },
  );

/** A file part, a text part, or one of the odd ones, for a form field `name`. */
function partArb(name: string, isFile: boolean, text: fc.Arbitrary<unknown>): fc.Arbitrary<FormPart> {
  const file = fc.record({
    name: fc.constant(name),
    filename: fileName,
    contentType: partContentType,
    content: fileRecipeWithOversize.map((file) => ({ file })),
  });
  const asText = fc.record({ name: fc.constant(name), content: text.map((value) => ({ text: value })) });
  return isFile
    ? fc.oneof({ weight: 12, arbitrary: file }, { weight: 1, arbitrary: asText })
    : fc.oneof({ weight: 12, arbitrary: asText }, { weight: 1, arbitrary: file });
}

/**
 * A form with the given fields: each present or not (files mostly present), sometimes duplicated, sometimes with an
 * unknown part, a nameless part or one part too many; `text` gives the text fields' values.
 */
export function formArb(fields: ReadonlyArray<{ name: string; isFile: boolean; text: fc.Arbitrary<unknown> }>): fc.Arbitrary<MultipartForm> {
  const present = fields.map((f) => fc.option(partArb(f.name, f.isFile, f.text), { freq: f.isFile ? 12 : 2, nil: undefined }));
  const extra = fc.oneof(
    { weight: 12, arbitrary: fc.constant([] as FormPart[]) },
    { weight: 1, arbitrary: fc.constantFrom('', 'unknown', 'file[]', 'a\u0000b', '__proto__').map((name) => [{ name, content: { text: 'x' } }]) },
  );
  const parts = fc.tuple(fc.tuple(...present), extra, fc.integer({ min: 0, max: 9 })).map(([ps, more, duplicate]) => {
    const list = [...ps.filter((p): p is FormPart => p !== undefined), ...more];
    if (duplicate === 0 && list.length > 0) list.push(list[0]!);
    return list;
  });
  return boundaryArb.chain((boundary) =>
    fc.record({
      boundary: fc.constant(boundary),
      contentType: contentTypeFor(boundary),
      parts,
      ending: fc.constantFrom<MultipartForm['ending']>('closed', 'closed', 'closed', 'closed', 'closed', 'closed', 'unclosed', 'truncated', 'lf'),
      cutAt: fc.double({ min: 0, max: 1, noNaN: true }),
    }),
  );
}

/** The body bytes of a form. */
export function encodeForm(form: MultipartForm, docs: FuzzDocuments): Buffer {
  const eol = form.ending === 'lf' ? '\n' : '\r\n';
  const chunks: Buffer[] = [];
  for (const part of form.parts) {
    let head = `--${form.boundary}${eol}Content-Disposition: form-data; name="${part.name}"`;
    if (part.filename !== undefined) head += `; filename="${toText(part.filename)}"`;
    head += eol;
    if (part.contentType !== undefined) head += `Content-Type: ${part.contentType}${eol}`;
    chunks.push(Buffer.from(head + eol, 'utf8'));
    const content = 'file' in part.content ? fileBytes(part.content.file, docs) : toText(part.content.text);
    chunks.push(content instanceof Huge ? Buffer.from(content.text(), 'latin1') : Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8'));
    chunks.push(Buffer.from(eol));
  }
  if (form.ending !== 'unclosed') chunks.push(Buffer.from(`--${form.boundary}--${eol}`));
  const body = Buffer.concat(chunks);
  return form.ending === 'truncated' ? body.subarray(0, Math.floor(body.length * form.cutAt)) : body;
}
