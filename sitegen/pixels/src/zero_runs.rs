//! A deflate encoder for filtered PNG rows that are mostly zeros: a card's words drawn over a
//! background whose rows repeat, which the Up filter turns into zeros around the letters' edges.
//! It writes literals and runs of zeros (matches at distance 1) in one block of Huffman codes
//! fitted to the data (RFC 1951). Looking for no other repeats is what makes it fast: on a
//! card's rows it takes a fraction of the time of a general deflate at its fastest level, for
//! about the bytes of zlib's level 2.

/// Data told as bytes and runs of zeros, becoming a piece of a deflate stream: the caller
/// that knows where its data is zero says so, and those bytes are never looked at.
pub(crate) struct Runs {
    /// The symbols so far, `symbols[..written]`, and room after them written by index: a
    /// word's bytes are stored eight at a time whatever their count, and the count moves on
    /// by as many as were meant.
    symbols: Vec<u16>,
    written: usize,
    /// Zeros told and not yet written as symbols.
    zeros: usize,
    /// The Adler-32 and length of the data so far.
    adler: simd_adler32::Adler32,
    len: usize,
}

impl std::fmt::Debug for Runs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Runs")
            .field("symbols", &self.written)
            .field("zeros", &self.zeros)
            .field("len", &self.len)
            .finish_non_exhaustive()
    }
}

impl Runs {
    pub(crate) fn new() -> Self {
        Self {
            symbols: Vec::new(),
            written: 0,
            zeros: 0,
            adler: simd_adler32::Adler32::new(),
            len: 0,
        }
    }

    /// `count` zeros.
    pub(crate) fn zeros(&mut self, count: usize) {
        self.zeros += count;
        // Zeros leave the first sum as it is and add it to the second once for each.
        let sums = self.adler.finish();
        let (first, second) = (sums & 0xffff, sums >> 16);
        let second =
            (u64::from(second) + (count as u64 % ADLER_BASE) * u64::from(first)) % ADLER_BASE;
        self.adler = simd_adler32::Adler32::from_checksum((second as u32) << 16 | first);
        self.len += count;
    }

    /// `data`, whose runs of zeros are found here.
    pub(crate) fn bytes(&mut self, data: &[u8]) {
        self.adler.write(data);
        self.len += data.len();
        // A symbol a byte at most, and the eight a word's store writes past its own.
        self.room(data.len() + 8);
        // Eight bytes at a time: a word of zeros adds to the run; any other ends the run with
        // its first zeros and starts the next with its last, and what is between them is
        // written as literals, zeros among them (a run of a few costs about as much).
        let mut words = data.chunks_exact(8);
        for word in words.by_ref() {
            let bits = u64::from_le_bytes(word.try_into().expect("eight bytes"));
            if bits == 0 {
                self.zeros += 8;
                continue;
            }
            let (first, last) = (bits.trailing_zeros() / 8, bits.leading_zeros() / 8);
            self.zeros += first as usize;
            self.end_zeros();
            // The word from its first byte that is not zero, all eight stored as symbols; the
            // count takes those up to its last.
            let from_first = bits >> (first * 8);
            let at = self.written;
            let slots: &mut [u16; 8] = (&mut self.symbols[at..at + 8])
                .try_into()
                .expect("room for a word");
            for (i, slot) in slots.iter_mut().enumerate() {
                *slot = (from_first >> (8 * i) & 0xff) as u16;
            }
            self.written += (8 - first - last) as usize;
            self.zeros = last as usize;
        }
        for &byte in words.remainder() {
            if byte == 0 {
                self.zeros += 1;
            } else {
                self.end_zeros();
                self.symbols[self.written] = u16::from(byte);
                self.written += 1;
            }
        }
    }

    /// Makes room for `count` symbols after those written, besides what a run of zeros takes.
    fn room(&mut self, count: usize) {
        let needed = self.written + count + self.zeros / MAX_MATCH + MIN_MATCH + 1;
        if self.symbols.len() < needed {
            self.symbols.resize(needed.max(self.symbols.len() * 2), 0);
        }
    }

    /// Writes the zeros told so far as symbols: a literal zero, then matches of the zero before.
    fn end_zeros(&mut self) {
        if self.zeros == 0 {
            return;
        }
        let mut at = self.written;
        self.symbols[at] = 0;
        at += 1;
        let mut rest = self.zeros - 1;
        while rest >= MIN_MATCH {
            let len = rest.min(MAX_MATCH);
            self.symbols[at] = MATCH + len as u16;
            at += 1;
            rest -= len;
        }
        for _ in 0..rest {
            self.symbols[at] = 0;
            at += 1;
        }
        self.written = at;
        self.zeros = 0;
    }

    /// The Adler-32 and length of the data.
    pub(crate) fn checksum(&self) -> (u32, usize) {
        (self.adler.finish(), self.len)
    }

    /// Appends the data to `out` as one block of deflate (not the last of its stream) followed
    /// by an empty stored block, so that the piece ends on a byte and refers to nothing before
    /// it: pieces compressed apart join into one stream (what zlib's full flush makes).
    pub(crate) fn deflate(mut self, out: &mut Vec<u8>) {
        self.room(0);
        self.end_zeros();
        let symbols = &self.symbols[..self.written];
        // Counted in four tables, one symbol in each by turns: a run of the same symbol would
        // otherwise wait on each count's store before the next count.
        let mut counts = [[0u32; LITERALS]; 4];
        let mut fours = symbols.chunks_exact(4);
        for four in fours.by_ref() {
            for (table, &symbol) in counts.iter_mut().zip(four) {
                table[usize::from(CODES[usize::from(symbol)])] += 1;
            }
        }
        for &symbol in fours.remainder() {
            counts[0][usize::from(CODES[usize::from(symbol)])] += 1;
        }
        let mut freqs = [0u32; LITERALS];
        for (symbol, freq) in freqs.iter_mut().enumerate() {
            *freq = counts.iter().map(|table| table[symbol]).sum();
        }
        freqs[END_OF_BLOCK] = 1;
        let literal_lens = code_lengths(&freqs, 15);
        let literal_codes = canonical_codes(&literal_lens);

        // Each symbol's bits at once: its code, and for a match the length's extra bits and
        // the distance's one-bit code (the first of two, for distance 1, the only one used).
        let mut writes = [(0u64, 0u32); SYMBOLS];
        for (symbol, write) in writes.iter_mut().enumerate() {
            if symbol >= usize::from(MATCH) && symbol - usize::from(MATCH) < MIN_MATCH {
                continue;
            }
            let code = usize::from(CODES[symbol]);
            let (len, mut bits) = (literal_lens[code], u64::from(literal_codes[code]));
            let mut count = u32::from(len);
            if symbol >= usize::from(MATCH) {
                let (extra_bits, extra) = LENGTHS[symbol - usize::from(MATCH)];
                bits |= u64::from(extra) << count;
                count += u32::from(extra_bits) + 1; // the distance's code is a zero bit
            }
            *write = (bits, count);
        }

        let mut bits = Bits {
            out,
            acc: 0,
            count: 0,
        };
        bits.put(0, 1); // not the last block
        bits.put(2, 2); // codes of its own
        write_code_lengths(&mut bits, &literal_lens);
        bits.flush_whole_bytes();
        // The symbols into bytes made ready ahead (a symbol takes at most 15 + 5 + 1 bits, three
        // bytes), eight bytes stored after each symbol and the position moved on by the whole
        // bytes among them: no branch, and the writer's state in registers.
        let (mut acc, mut count) = (bits.acc, bits.count);
        let start = bits.out.len();
        bits.out.resize(start + symbols.len() * 3 + 8, 0);
        let mut at = start;
        for &symbol in symbols {
            let (value, len) = writes[usize::from(symbol)];
            acc |= value << count;
            count += len;
            bits.out[at..at + 8].copy_from_slice(&acc.to_le_bytes());
            let whole = count / 8;
            at += whole as usize;
            acc >>= whole * 8;
            count -= whole * 8;
        }
        bits.out.truncate(at);
        (bits.acc, bits.count) = (acc, count);
        bits.put(literal_codes[END_OF_BLOCK], literal_lens[END_OF_BLOCK]);
        // An empty stored block, not the last: its header, then up to the next byte, then its
        // length and the length's complement.
        bits.put(0, 3);
        bits.flush();
        bits.out.extend_from_slice(&[0x00, 0x00, 0xff, 0xff]);
    }
}

/// Adler-32's modulus.
const ADLER_BASE: u64 = 65_521;

/// The literal and length alphabet's size, and its end of block.
const LITERALS: usize = 286;
const END_OF_BLOCK: usize = 256;
/// Symbols from here on are matches of (symbol - MATCH) bytes; below it, literal bytes.
const MATCH: u16 = 256;
/// A match's shortest and longest length.
const MIN_MATCH: usize = 3;
const MAX_MATCH: usize = 258;

/// How many symbols there are: the literal bytes, then matches of up to [`MAX_MATCH`].
const SYMBOLS: usize = MATCH as usize + MAX_MATCH + 1;

/// The literal or length code of each symbol: a literal byte (below [`MATCH`]) is its own
/// code, a match of `symbol - MATCH` bytes at distance 1 its length's.
static CODES: [u16; SYMBOLS] = {
    let lengths = length_table().0;
    let mut codes = [0u16; SYMBOLS];
    let mut symbol = 0;
    while symbol < SYMBOLS {
        codes[symbol] = if symbol < MATCH as usize {
            symbol as u16
        } else {
            lengths[symbol - MATCH as usize]
        };
        symbol += 1;
    }
    codes
};

/// The extra bits of each match length (by length), and their value.
static LENGTHS: [(u8, u16); MAX_MATCH + 1] = length_table().1;

const fn length_table() -> ([u16; MAX_MATCH + 1], [(u8, u16); MAX_MATCH + 1]) {
    // RFC 1951, 3.2.5: the first length of codes 257 to 285, and their extra bits.
    const BASE: [u16; 29] = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115,
        131, 163, 195, 227, 258,
    ];
    const EXTRA: [u8; 29] = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ];
    let mut codes = [0u16; MAX_MATCH + 1];
    let mut extras = [(0u8, 0u16); MAX_MATCH + 1];
    let mut len = MIN_MATCH;
    let mut index = 0;
    while len <= MAX_MATCH {
        // 258 has a code of its own, though code 284's range reaches it too.
        while index + 1 < BASE.len() && BASE[index + 1] as usize <= len {
            index += 1;
        }
        codes[len] = 257 + index as u16;
        extras[len] = (EXTRA[index], len as u16 - BASE[index]);
        len += 1;
    }
    (codes, extras)
}

/// The Huffman code lengths of an alphabet with `freqs`, none longer than `limit` bits; a
/// symbol that never occurs gets none. A lone symbol gets a partner, so that the code is
/// complete, as some inflaters require.
fn code_lengths(freqs: &[u32], limit: u8) -> Vec<u8> {
    let mut lens = vec![0u8; freqs.len()];
    // Occurring symbols, least frequent first.
    let mut leaves: Vec<(u32, usize)> = freqs
        .iter()
        .enumerate()
        .filter(|(_, freq)| **freq > 0)
        .map(|(symbol, freq)| (*freq, symbol))
        .collect();
    if leaves.len() < 2 {
        let lone = leaves.first().map_or(0, |(_, symbol)| *symbol);
        lens[lone] = 1;
        lens[usize::from(lone == 0)] = 1;
        return lens;
    }
    leaves.sort_unstable();

    // Huffman's tree by two queues: the leaves in order, and the joined nodes, which are made
    // in order of weight. Nodes 0..n are the leaves, n.. the joined ones.
    let n = leaves.len();
    let mut weight: Vec<u64> = leaves.iter().map(|(freq, _)| u64::from(*freq)).collect();
    let mut parent = vec![0usize; 2 * n - 1];
    let (mut next_leaf, mut next_joined) = (0, n);
    for joined in n..2 * n - 1 {
        let mut lightest = || {
            let take_leaf = next_leaf < n
                && (next_joined >= joined || weight[next_leaf] <= weight[next_joined]);
            let node = if take_leaf {
                &mut next_leaf
            } else {
                &mut next_joined
            };
            *node += 1;
            *node - 1
        };
        let (a, b) = (lightest(), lightest());
        parent[a] = joined;
        parent[b] = joined;
        weight.push(weight[a] + weight[b]);
    }
    // Depths from the root (the last node) down.
    let mut depth = vec![0u8; 2 * n - 1];
    for node in (0..2 * n - 2).rev() {
        depth[node] = depth[parent[node]].saturating_add(1);
    }

    // How many codes of each length, with the longer than `limit` moved to `limit` and codes
    // lengthened one at a time until the lengths fit a code again (miniz's way).
    let limit = usize::from(limit);
    let mut count = vec![0u32; limit + 1];
    for &d in &depth[..n] {
        count[usize::from(d).min(limit)] += 1;
    }
    let kraft = |count: &[u32]| -> u64 {
        (1..=limit)
            .map(|len| u64::from(count[len]) << (limit - len))
            .sum()
    };
    let mut total = kraft(&count);
    while total > 1 << limit {
        count[limit] -= 1;
        if let Some(len) = (1..limit).rev().find(|len| count[*len] > 0) {
            count[len] -= 1;
            count[len + 1] += 2;
        }
        total -= 1;
    }
    // The longest codes to the rarest symbols.
    let mut rarest = leaves.iter();
    for len in (1..=limit).rev() {
        for (_, symbol) in rarest.by_ref().take(count[len] as usize) {
            lens[*symbol] = len as u8;
        }
    }
    lens
}

/// The canonical codes of `lens` (RFC 1951, 3.2.2), bit-reversed to be written from the
/// lowest bit as deflate's bit order wants.
fn canonical_codes(lens: &[u8]) -> Vec<u32> {
    let mut count = [0u32; 16];
    for &len in lens {
        count[usize::from(len)] += 1;
    }
    count[0] = 0;
    let mut next = [0u32; 16];
    let mut code = 0;
    for len in 1..16 {
        code = (code + count[len - 1]) << 1;
        next[len] = code;
    }
    lens.iter()
        .map(|&len| {
            if len == 0 {
                return 0;
            }
            let code = next[usize::from(len)];
            next[usize::from(len)] += 1;
            code.reverse_bits() >> (32 - u32::from(len))
        })
        .collect()
}

/// The block's header after its type: how many codes, and the code lengths of the literals
/// and lengths (`literal_lens`) and of the distances (two of one bit), themselves run-length
/// coded with codes of their own.
fn write_code_lengths(bits: &mut Bits<'_>, literal_lens: &[u8]) {
    let literals = literal_lens
        .iter()
        .rposition(|&len| len > 0)
        .map_or(257, |last| last + 1)
        .max(257);
    let mut lens = literal_lens[..literals].to_vec();
    lens.extend_from_slice(&[1, 1]);

    // Runs of lengths: 16 repeats the one before 3-6 times, 17 and 18 give 3-10 and 11-138
    // zeros; each with its extra bits.
    let mut runs: Vec<(u8, u8)> = Vec::new();
    let mut at = 0;
    while at < lens.len() {
        let len = lens[at];
        let run = lens[at..].iter().take_while(|&&l| l == len).count();
        at += run;
        let mut rest = run;
        if len == 0 {
            while rest >= 11 {
                let take = rest.min(138);
                runs.push((18, (take - 11) as u8));
                rest -= take;
            }
            if rest >= 3 {
                runs.push((17, (rest - 3) as u8));
                rest = 0;
            }
        } else {
            runs.push((len, 0));
            rest -= 1;
            while rest >= 3 {
                let take = rest.min(6);
                runs.push((16, (take - 3) as u8));
                rest -= take;
            }
        }
        runs.extend(std::iter::repeat_n((len, 0), rest));
    }
    let mut freqs = [0u32; 19];
    for (symbol, _) in &runs {
        freqs[usize::from(*symbol)] += 1;
    }
    let run_lens = code_lengths(&freqs, 7);
    let run_codes = canonical_codes(&run_lens);
    const ORDER: [usize; 19] = [
        16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
    ];
    let sent = ORDER
        .iter()
        .rposition(|&symbol| run_lens[symbol] > 0)
        .map_or(4, |last| last + 1)
        .max(4);

    bits.put((literals - 257) as u32, 5);
    bits.put(1, 5); // two distance codes
    bits.put((sent - 4) as u32, 4);
    for &symbol in &ORDER[..sent] {
        bits.put(u32::from(run_lens[symbol]), 3);
    }
    for (symbol, extra) in runs {
        let s = usize::from(symbol);
        bits.put(run_codes[s], run_lens[s]);
        match symbol {
            16 => bits.put(u32::from(extra), 2),
            17 => bits.put(u32::from(extra), 3),
            18 => bits.put(u32::from(extra), 7),
            _ => {}
        }
    }
}

/// Bits written from the lowest up, as deflate packs them.
struct Bits<'a> {
    out: &'a mut Vec<u8>,
    acc: u64,
    count: u32,
}

impl Bits<'_> {
    /// Writes the `len` low bits of `value` (at most 32).
    #[inline]
    fn put(&mut self, value: u32, len: u8) {
        self.acc |= u64::from(value) << self.count;
        self.count += u32::from(len);
        if self.count >= 32 {
            self.out.extend_from_slice(&(self.acc as u32).to_le_bytes());
            self.acc >>= 32;
            self.count -= 32;
        }
    }

    /// Writes the whole bytes held, keeping the bits of a byte not yet full.
    fn flush_whole_bytes(&mut self) {
        while self.count >= 8 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.count -= 8;
        }
    }

    /// Writes what is left, up to the next byte.
    fn flush(&mut self) {
        while self.count > 0 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.count = self.count.saturating_sub(8);
        }
        self.acc = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `pieces` compressed apart and joined into one raw deflate stream, inflated.
    fn inflate(pieces: &[&[u8]]) -> Vec<u8> {
        let total = pieces.iter().map(|piece| piece.len()).sum::<usize>();
        inflate_runs(pieces.iter().map(|piece| piece_of(piece)), total)
    }

    /// `runs` of `total` bytes in all, deflated one after the other into one raw stream, inflated.
    fn inflate_runs(runs: impl IntoIterator<Item = Runs>, total: usize) -> Vec<u8> {
        let mut stream = Vec::new();
        for runs in runs {
            runs.deflate(&mut stream);
        }
        // An empty final block of fixed codes ends the stream.
        stream.extend_from_slice(&[0x03, 0x00]);
        let mut inflated = Vec::with_capacity(total + 1);
        let mut inflate = flate2::Decompress::new(false);
        inflate
            .decompress_vec(&stream, &mut inflated, flate2::FlushDecompress::Finish)
            .expect("inflates");
        assert_eq!(
            inflate.total_in() as usize,
            stream.len(),
            "the stream ends where it should"
        );
        inflated
    }

    /// `data` told in parts: its first third as bytes, its zeros as zeros where there are
    /// eight in a row, and the rest as bytes.
    fn piece_of(data: &[u8]) -> Runs {
        let mut runs = Runs::new();
        let (head, tail) = data.split_at(data.len() / 3);
        runs.bytes(head);
        for part in tail.chunk_by(|a, b| (*a == 0) == (*b == 0)) {
            if part[0] == 0 && part.len() >= 8 {
                runs.zeros(part.len());
            } else {
                runs.bytes(part);
            }
        }
        assert_eq!(
            runs.checksum(),
            (simd_adler32::adler32(&data), data.len()),
            "the checksum of the parts is the whole's"
        );
        runs
    }

    fn noise(len: usize, seed: u32) -> Vec<u8> {
        (0..len as u32)
            .map(|i| (i.wrapping_add(seed).wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect()
    }

    #[test]
    fn what_is_deflated_inflates_to_the_same_bytes() {
        let mut rows = Vec::new();
        for row in 0..40usize {
            rows.push(2);
            rows.extend(std::iter::repeat_n(0, row * 37 % 300));
            rows.extend(noise(row % 7, row as u32));
            rows.extend(std::iter::repeat_n(0, 1 + row % 5));
            rows.push(0xff);
        }
        let cases: [Vec<u8>; 8] = [
            Vec::new(),
            vec![0],
            vec![7],
            vec![0; 3],
            vec![0; 259],
            vec![0; 100_000],
            noise(70_000, 1),
            rows,
        ];
        for data in &cases {
            assert!(inflate(&[data]) == *data, "{} bytes differ", data.len());
        }
        let joined: Vec<u8> = cases.concat();
        let pieces: Vec<&[u8]> = cases.iter().map(Vec::as_slice).collect();
        assert!(inflate(&pieces) == joined, "pieces joined differ");
    }

    /// The symbols are stored by index into room made ahead: any mix of parts told as bytes
    /// and as zeros, of any lengths, with zeros at any place in the words, fits and inflates
    /// to the data.
    #[test]
    fn any_mix_of_bytes_and_zeros_inflates_to_the_data() {
        for seed in 0..300u32 {
            let choices = noise(64, seed);
            let mut runs = Runs::new();
            let mut data = Vec::new();
            for (i, &choice) in choices.iter().enumerate() {
                let len = usize::from(choice) * (1 + usize::from(choice % 5) * 40) % 3_000;
                if choice % 3 == 0 {
                    runs.zeros(len);
                    data.resize(data.len() + len, 0);
                } else {
                    // Bytes with zeros among them: none, a few, or runs of them.
                    let part: Vec<u8> = noise(len, seed * 64 + i as u32)
                        .into_iter()
                        .map(|byte| if byte % 4 < choice % 4 { 0 } else { byte })
                        .collect();
                    runs.bytes(&part);
                    data.extend_from_slice(&part);
                }
            }
            assert_eq!(
                runs.checksum(),
                (simd_adler32::adler32(&data.as_slice()), data.len())
            );
            let inflated = inflate_runs([runs], data.len());
            assert!(inflated == data, "seed {seed}: {} bytes differ", data.len());
        }
    }

    #[test]
    fn mostly_zeros_come_out_small() {
        let mut rows = vec![0u8; 3601 * 100];
        for (i, byte) in rows.iter_mut().enumerate().step_by(97) {
            *byte = (i % 13) as u8 + 1;
        }
        let mut out = Vec::new();
        piece_of(&rows).deflate(&mut out);
        // Under a byte for each of the 3,700 literals, and a few bytes for each run.
        assert!(out.len() < 3_712 * 3, "{} bytes", out.len());
    }

    #[test]
    fn code_lengths_fit_their_limit_and_make_a_complete_code() {
        // Fibonacci frequencies make Huffman's deepest tree, far deeper than the limit.
        let mut freqs = vec![1u32, 1];
        while freqs.len() < 40 {
            let next = freqs[freqs.len() - 1] + freqs[freqs.len() - 2];
            freqs.push(next);
        }
        freqs.extend([0, 0, 5]);
        for limit in [7, 15] {
            let lens = code_lengths(&freqs, limit);
            assert!(lens.iter().all(|&len| len <= limit));
            assert_eq!(lens[40], 0, "a symbol that never occurs has no code");
            let kraft: f64 = lens
                .iter()
                .filter(|&&len| len > 0)
                .map(|&len| 0.5f64.powi(i32::from(len)))
                .sum();
            assert!((kraft - 1.0).abs() < 1e-12, "kraft sum {kraft}");
            // The more frequent never gets the longer code.
            for (a, b) in (0..freqs.len()).flat_map(|a| (0..freqs.len()).map(move |b| (a, b))) {
                if freqs[a] > freqs[b] && freqs[b] > 0 {
                    assert!(lens[a] <= lens[b], "{a} and {b}");
                }
            }
        }
        assert_eq!(code_lengths(&[0, 0, 4], 15), [1, 0, 1][..].to_vec());
    }
}
