// The photo scenario's peer (sitegen/examples/photos.rs): sharp encoding the same sources to the
// same widths and formats as sitegen's first build, all at once as Astro's and Eleventy's image
// pipelines queue them (sharp runs them on libuv's threads, libvips on the cores).
//
//   node photos.mjs SOURCES_DIR WIDTH,WIDTH,... AVIF_QUALITY WEBP_QUALITY JPEG_QUALITY
//
// Run from the folder sharp is installed in. Prints one JSON line: the wall time, the files and
// the bytes of each format.
import { readdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'

const sharp = createRequire(path.join(process.cwd(), 'package.json'))('sharp')
const [dir, widthList, ...qualities] = process.argv.slice(2)
const [avif, webp, jpeg] = qualities.map(Number)
if (!dir || !widthList || !(avif && webp && jpeg)) {
  throw new Error('usage: node photos.mjs SOURCES_DIR WIDTHS AVIF_QUALITY WEBP_QUALITY JPEG_QUALITY')
}
const widths = widthList.split(',').map(Number)

// AVIF at the quality the caller matched to sitegen's by SSIM, at sharp's default effort (4);
// WebP and JPEG at sitegen's qualities (both libwebp; JPEG with sharp's defaults: 4:2:0,
// optimised Huffman tables, baseline).
const formats = {
  avif: (image) => image.avif({ quality: avif, effort: 4 }),
  webp: (image) => image.webp({ quality: webp }),
  jpeg: (image) => image.jpeg({ quality: jpeg }),
}

const sources = readdirSync(dir)
  .filter((name) => name.endsWith('.jpg'))
  .map((name) => path.join(dir, name))
const bytes = { avif: 0, webp: 0, jpeg: 0 }
let files = 0
const started = performance.now()
await Promise.all(
  sources.flatMap((source) =>
    widths.flatMap((width) =>
      Object.entries(formats).map(async ([format, encode]) => {
        const out = await encode(sharp(source).rotate().resize({ width, withoutEnlargement: true })).toBuffer()
        bytes[format] += out.length
        files += 1
      }),
    ),
  ),
)
const seconds = (performance.now() - started) / 1000
console.log(JSON.stringify({ sharp: sharp.versions.sharp, vips: sharp.versions.vips, sources: sources.length, files, seconds, bytes }))
