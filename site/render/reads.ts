// What a page reads of the content while render/entry.server.ts hashes its inputs, so that sitegen
// hashes a page again only when something it read changed. sitegen sends the scheme of the keys
// with the content (render/worker.mjs); sitegen/src/render/reads.rs says what each key means and
// checks it:
//
//   a top-level field read whole      `settings`, `pages`, `images`, ...
//   a list as such                    `articles`: the order, and the fields it is indexed by
//   one entry of a list               `articles/<slug>`, `routes/<path>`: any other field
//   what stands for an entry          `article_bodies/<slug>`: item i of an array in the order of
//     elsewhere                       a list (an article's body), by the id of the list's entry i
//   one entry of a map                `cards/<path>`; the map listed: `cards`
//   the whole content                 `*`: its top-level fields listed

/** How reads are named (sitegen's `render::reads::SCHEME`). */
export interface ReadScheme {
  lists: { field: string; id: string; shape: string[] }[]
  maps: string[]
  by_place: { field: string; array: string; list: string }[]
}

let reading: Set<string> | undefined

function note(key: string): void {
  reading?.add(key)
}

/** Runs `f`, and answers what it read of a `tracked` content, as sorted keys. */
export function readsOf<T>(f: () => T): [T, string[]] {
  const reads = new Set<string>()
  reading = reads
  try {
    return [f(), [...reads].sort()]
  } finally {
    reading = undefined
  }
}

type Entry = Record<string, unknown>

/** An entry of a list: reading a field the list is not indexed by is a read of the entry. */
function trackedEntry(entry: Entry, key: string, shape: ReadonlySet<PropertyKey>): Entry {
  return new Proxy(entry, {
    get(target, field, receiver) {
      if (!shape.has(field)) note(key)
      return Reflect.get(target, field, receiver)
    },
    has(target, field) {
      if (!shape.has(field)) note(key)
      return Reflect.has(target, field)
    },
    ownKeys(target) {
      note(key)
      return Reflect.ownKeys(target)
    },
  })
}

/** A map: each key read is a read of its entry; listing the keys is a read of the map. */
function trackedMap(map: Entry, name: string): Entry {
  return new Proxy(map, {
    get(target, key, receiver) {
      if (typeof key === 'string') note(`${name}/${key}`)
      return Reflect.get(target, key, receiver)
    },
    has(target, key) {
      if (typeof key === 'string') note(`${name}/${key}`)
      return Reflect.has(target, key)
    },
    ownKeys(target) {
      note(name)
      return Reflect.ownKeys(target)
    },
  })
}

/** An array `field` in the order of a list: item i is read as `<field>/<id of entry i>`; the
 * array as such (its length) is a read of the list. */
function trackedByPlace(array: unknown[], field: string, list: string, ids: string[]): unknown[] {
  return new Proxy(array, {
    get(target, index, receiver) {
      const id = typeof index === 'string' && /^\d+$/.test(index) ? ids[Number(index)] : undefined
      note(id === undefined ? list : `${field}/${id}`)
      return Reflect.get(target, index, receiver)
    },
  })
}

/** `content` as it reads while `readsOf` runs: the same values, each read noted by `scheme`. */
export function tracked<C extends object>(content: C, scheme: ReadScheme): C {
  const source = content as Entry
  const view: Entry = { ...source }
  // Fields noted by their parts, not whole.
  const byParts = new Set<string>()
  const entryIds = new Map<string, string[]>()
  for (const { field, id, shape } of scheme.lists) {
    const entries = source[field]
    if (!Array.isArray(entries)) continue
    const indexedBy = new Set<PropertyKey>(shape)
    const ids = entries.map((entry: Entry) => String(entry[id]))
    entryIds.set(field, ids)
    view[field] = entries.map((entry: Entry, i) => trackedEntry(entry, `${field}/${ids[i]}`, indexedBy))
  }
  for (const name of scheme.maps) {
    const map = source[name]
    if (map && typeof map === 'object') view[name] = trackedMap(map as Entry, name)
    byParts.add(name)
  }
  for (const { field, array, list } of scheme.by_place) {
    byParts.add(field)
    const parts = source[field] as Entry | undefined
    const items = parts?.[array]
    if (!parts || !Array.isArray(items)) continue
    view[field] = { ...parts, [array]: trackedByPlace(items, field, list, entryIds.get(list) ?? []) }
  }
  return new Proxy(view, {
    get(target, field, receiver) {
      // A list read is a read of it as such; its entries, the maps and the by-place arrays
      // note their own reads.
      if (typeof field === 'string' && !byParts.has(field)) note(field)
      return Reflect.get(target, field, receiver)
    },
    ownKeys(target) {
      note('*')
      return Reflect.ownKeys(target)
    },
  }) as C
}
