import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'

// The schema.org vocabulary, as the types the site's structured data is written against
// (schema-dts, lib/structuredData.server.ts) spell it: each type with every property it takes,
// its ancestors' included. Read from the installed package, not fetched, so the test knows
// exactly what tsc knows.
//
// schema-dts declares each type as `interface <Name>Base extends <Parent>Base, ... { "prop"?: ... }`
// and `interface <Name>Leaf extends <Name>Base { "@type": "<Name>"; }`.

const declarations = readFileSync(createRequire(import.meta.url).resolve('schema-dts/dist/schema.d.ts'), 'utf8')

/** Each `...Base` interface: the interfaces it extends and its own properties. */
const bases = new Map<string, { parents: string[]; properties: string[] }>()
for (const match of declarations.matchAll(/^interface (\w+Base) extends ([^{]+)\{([\s\S]*?)^\}/gm)) {
  const [, name = '', parents = '', body = ''] = match
  bases.set(name, {
    parents: parents.split(',').map((p) => p.trim()).filter((p) => p.endsWith('Base')),
    properties: [...body.matchAll(/^ {4}"([\w@-]+)"\??:/gm)].map((m) => m[1] ?? ''),
  })
}

function propertiesOf(base: string, into = new Set<string>()): Set<string> {
  const found = bases.get(base)
  if (!found) return into
  for (const property of found.properties) into.add(property)
  for (const parent of found.parents) propertiesOf(parent, into)
  return into
}

/** Every schema.org type, with the properties it takes. */
export const vocabulary = new Map<string, Set<string>>()
for (const match of declarations.matchAll(/^export interface (\w+)Leaf extends (\w+Base) \{\s*"@type": "(\w+)";/gm)) {
  const [, , base = '', type = ''] = match
  vocabulary.set(type, propertiesOf(base))
}
