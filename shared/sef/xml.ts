/**
 * A small, strict XML reader for UBL documents (incoming invoices, the fake SEF's checks): elements, attributes,
 * text, the five predefined entities and numeric references, CDATA, comments and the declaration. No DTD (a
 * document with one is refused: no entity expansion), no external anything. Element names keep their prefix off
 * (`cbc:ID` → `ID`): UBL's prefixes are conventions, and its local names are what the profile names.
 */

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

export class XmlError extends Error {}

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (_, e: string) => {
    if (e === 'amp') return '&';
    if (e === 'lt') return '<';
    if (e === 'gt') return '>';
    if (e === 'quot') return '"';
    if (e === 'apos') return "'";
    const code = e.startsWith('#x') ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return String.fromCodePoint(code);
  });
}

const local = (name: string) => name.slice(name.indexOf(':') + 1);

/** Parses `xml` to its root element; throws XmlError on anything malformed. */
export function parseXml(xml: string): XmlElement {
  let i = 0;
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  const n = xml.length;
  while (i < n) {
    const lt = xml.indexOf('<', i);
    const text = lt < 0 ? xml.slice(i) : xml.slice(i, lt);
    if (stack.length > 0) (stack[stack.length - 1] as XmlElement).text += decode(text);
    else if (text.trim() !== '' && text.replace(/^\uFEFF/, '').trim() !== '')
      throw new XmlError('text outside the root');
    if (lt < 0) break;
    if (xml.startsWith('<?', lt)) {
      const end = xml.indexOf('?>', lt);
      if (end < 0) throw new XmlError('unclosed declaration');
      i = end + 2;
    } else if (xml.startsWith('<!--', lt)) {
      const end = xml.indexOf('-->', lt);
      if (end < 0) throw new XmlError('unclosed comment');
      i = end + 3;
    } else if (xml.startsWith('<![CDATA[', lt)) {
      const end = xml.indexOf(']]>', lt);
      if (end < 0 || stack.length === 0) throw new XmlError('bad CDATA');
      (stack[stack.length - 1] as XmlElement).text += xml.slice(lt + 9, end);
      i = end + 3;
    } else if (xml.startsWith('<!', lt)) {
      throw new XmlError('DTDs are not accepted');
    } else if (xml.startsWith('</', lt)) {
      const end = xml.indexOf('>', lt);
      if (end < 0) throw new XmlError('unclosed end tag');
      const name = local(xml.slice(lt + 2, end).trim());
      const open = stack.pop();
      if (!open || open.name !== name) throw new XmlError(`mismatched </${name}>`);
      i = end + 1;
    } else {
      const m = /^<([A-Za-z_][\w.:-]*)((?:\s+[A-Za-z_][\w.:-]*\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/.exec(
        xml.slice(lt, lt + 4096),
      );
      if (!m) throw new XmlError('bad start tag');
      const el: XmlElement = { name: local(m[1] as string), attrs: {}, children: [], text: '' };
      for (const a of (m[2] as string).matchAll(/([A-Za-z_][\w.:-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
        el.attrs[local(a[1] as string)] = decode(a[2] ?? a[3] ?? '');
      }
      if (stack.length > 0) (stack[stack.length - 1] as XmlElement).children.push(el);
      else if (root) throw new XmlError('two roots');
      else root = el;
      if (m[3] !== '/') stack.push(el);
      i = lt + m[0].length;
    }
  }
  if (!root || stack.length > 0) throw new XmlError('incomplete document');
  return root;
}

/** The first descendant along `path` (local names), e.g. `child(doc, 'AccountingSupplierParty', 'Party')`. */
export function child(el: XmlElement | undefined, ...path: string[]): XmlElement | undefined {
  let cur = el;
  for (const name of path) cur = cur?.children.find((c) => c.name === name);
  return cur;
}

/** Every direct child named `name`. */
export function childrenNamed(el: XmlElement | undefined, name: string): XmlElement[] {
  return el?.children.filter((c) => c.name === name) ?? [];
}

/** The trimmed text along `path`, or undefined. */
export function textAt(el: XmlElement | undefined, ...path: string[]): string | undefined {
  const t = child(el, ...path)?.text.trim();
  return t === undefined || t === '' ? undefined : t;
}

/** Every descendant named `name`, depth first. */
export function descendants(el: XmlElement, name: string): XmlElement[] {
  const out: XmlElement[] = [];
  const walk = (e: XmlElement) => {
    for (const c of e.children) {
      if (c.name === name) out.push(c);
      walk(c);
    }
  };
  walk(el);
  return out;
}
