//! The memory bytes a context lists or an evaluation writes, by (address
//! space, address): what [`crate::context::State::memory`] holds.
//!
//! Addresses are unbounded (a pointer can be 1024 bits wide), but listed
//! bytes are few and clustered, and almost every address fits in 64 bits.
//! So bytes live in 64-byte pages with a bitmap of the bytes that are set,
//! keyed by (address space, page number), the page number a machine word
//! when the address fits in 64 bits. A lookup then neither allocates nor
//! walks a map node per byte, which a map of single bytes keyed by big
//! integers did on every read (the fuzz targets' profile showed it). An
//! unset byte of a page is kept 0 and a page with no byte set is removed,
//! so two memories with the same bytes are equal (`==`) whatever their
//! history.

use num_bigint::BigUint;
use num_traits::ToPrimitive;
use std::collections::BTreeMap;

const PAGE_BITS: u32 = 6;
const PAGE: u64 = 1 << PAGE_BITS;

/// A page number. Every address below 2^64 has a `Small` page number (below
/// 2^58) and every other a `Big` one (at least 2^58), so the derived order
/// (variants first) is the numeric order.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum PageNo {
    Small(u64),
    Big(BigUint),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Page {
    /// Bit `i`: byte `i` is set.
    set: u64,
    bytes: [u8; PAGE as usize],
}

/// The page number and the offset in the page of an address.
fn split(address: &BigUint) -> (PageNo, usize) {
    match address.to_u64() {
        Some(a) => (PageNo::Small(a >> PAGE_BITS), (a & (PAGE - 1)) as usize),
        None => {
            let low = address.iter_u64_digits().next().unwrap_or(0);
            (
                PageNo::Big(address >> PAGE_BITS),
                (low & (PAGE - 1)) as usize,
            )
        }
    }
}

fn split_u128(address: u128) -> (PageNo, usize) {
    let off = (address & u128::from(PAGE - 1)) as usize;
    match u64::try_from(address) {
        Ok(a) => (PageNo::Small(a >> PAGE_BITS), off),
        Err(_) => (PageNo::Big(BigUint::from(address >> PAGE_BITS)), off),
    }
}

fn page_base(p: &PageNo) -> BigUint {
    match p {
        PageNo::Small(n) => BigUint::from(*n) << PAGE_BITS,
        PageNo::Big(n) => n << PAGE_BITS,
    }
}

/// A page's set bytes as (address, byte), in order.
/// `page_base` when it fits a `u128`, without building a `BigUint` for the
/// usual small page (the fast evaluator's paths).
fn page_base_u128(p: &PageNo) -> Option<u128> {
    match p {
        PageNo::Small(n) => Some(u128::from(*n) << PAGE_BITS),
        PageNo::Big(_) => page_base(p).to_u128(),
    }
}

fn set_bytes<'p>(p: &PageNo, page: &'p Page) -> impl Iterator<Item = (BigUint, u8)> + 'p {
    let base = page_base(p);
    (0..PAGE as usize)
        .filter(move |i| page.set >> i & 1 == 1)
        .map(move |i| (&base + i, page.bytes[i]))
}

/// Listed or written memory bytes (see the module docs).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Memory {
    pages: BTreeMap<(u32, PageNo), Page>,
    /// How many bytes are set.
    len: usize,
}

impl Memory {
    pub fn new() -> Self {
        Self::default()
    }

    /// How many bytes are set.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn get(&self, addrspace: u32, address: &BigUint) -> Option<u8> {
        let (p, off) = split(address);
        let page = self.pages.get(&(addrspace, p))?;
        (page.set >> off & 1 == 1).then_some(page.bytes[off])
    }

    pub fn contains(&self, addrspace: u32, address: &BigUint) -> bool {
        self.get(addrspace, address).is_some()
    }

    /// Sets a byte; returns what it held.
    pub fn insert(&mut self, addrspace: u32, address: &BigUint, value: u8) -> Option<u8> {
        let (p, off) = split(address);
        let page = self.pages.entry((addrspace, p)).or_insert(Page {
            set: 0,
            bytes: [0; PAGE as usize],
        });
        let old = (page.set >> off & 1 == 1).then_some(page.bytes[off]);
        if old.is_none() {
            self.len += 1;
        }
        page.set |= 1 << off;
        page.bytes[off] = value;
        old
    }

    /// Sets `bytes` from `address` upwards.
    // A counter beside the loop, not a range: `BigUint` is no `Step` type.
    #[allow(clippy::explicit_counter_loop)]
    pub fn insert_bytes(&mut self, addrspace: u32, address: &BigUint, bytes: &[u8]) {
        let mut at = address.clone();
        for b in bytes {
            self.insert(addrspace, &at, *b);
            at += 1u32;
        }
    }

    /// Unsets a byte (it reads as the context's seeded byte again); returns
    /// what it held.
    pub fn remove(&mut self, addrspace: u32, address: &BigUint) -> Option<u8> {
        let (p, off) = split(address);
        let key = (addrspace, p);
        let page = self.pages.get_mut(&key)?;
        if page.set >> off & 1 == 0 {
            return None;
        }
        let old = page.bytes[off];
        page.set &= !(1 << off);
        page.bytes[off] = 0;
        if page.set == 0 {
            self.pages.remove(&key);
        }
        self.len -= 1;
        Some(old)
    }

    /// Every set byte as (address space, address, byte), in that order.
    pub fn iter(&self) -> impl Iterator<Item = (u32, BigUint, u8)> + '_ {
        self.pages
            .iter()
            .flat_map(|((a, p), page)| set_bytes(p, page).map(move |(addr, b)| (*a, addr, b)))
    }

    /// The set bytes of `addrspace` at addresses in `first..end`, in order.
    pub fn range<'m>(
        &'m self,
        addrspace: u32,
        first: &BigUint,
        end: &BigUint,
    ) -> impl Iterator<Item = (BigUint, u8)> + 'm {
        let (lo, _) = split(first);
        let (first, end) = (first.clone(), end.clone());
        self.pages
            .range((addrspace, lo)..)
            .take_while(move |((a, _), _)| *a == addrspace)
            .flat_map(|((_, p), page)| set_bytes(p, page))
            .skip_while(move |(addr, _)| *addr < first)
            .take_while(move |(addr, _)| *addr < end)
    }

    /// The lowest and the highest set address of `addrspace`, when both fit
    /// in 128 bits (`None` when there is none; the highest is `u128::MAX`
    /// when it does not fit).
    pub fn span_u128(&self, addrspace: u32) -> Option<(u128, u128)> {
        // The space's first and last page, from both ends of its range (not
        // by walking every page between).
        let mut r = match addrspace.checked_add(1) {
            Some(next) => self
                .pages
                .range((addrspace, PageNo::Small(0))..(next, PageNo::Small(0))),
            None => self.pages.range((addrspace, PageNo::Small(0))..),
        };
        let ((_, p0), page0) = r.next()?;
        let first = page_base_u128(p0)? + u128::from(page0.set.trailing_zeros());
        let (p, page) = r
            .next_back()
            .map_or((p0, page0), |((_, p), page)| (p, page));
        let last =
            page_base_u128(p).map_or(u128::MAX, |b| b + u128::from(63 - page.set.leading_zeros()));
        Some((first, last))
    }

    /// Every page whose base address fits in 128 bits, in order: (address
    /// space, base address, which of its 64 bytes are set, the bytes).
    pub fn pages_u128(&self) -> impl Iterator<Item = (u32, u128, u64, &[u8; 64])> + '_ {
        self.pages.iter().filter_map(|((a, p), page)| {
            page_base_u128(p).map(|base| (*a, base, page.set, &page.bytes))
        })
    }

    /// Overwrites `out[i]` with the set byte at `address + i` of
    /// `addrspace`, where there is one, and returns which `i` those are (bit
    /// `i`), so that the caller computes only the other bytes. At most 64
    /// bytes (addresses wrap at 2^128: the caller keeps its reads below
    /// that).
    pub fn overlay_u128(&self, addrspace: u32, address: u128, out: &mut [u8]) -> u64 {
        assert!(out.len() <= 64, "at most 64 bytes at a time");
        if out.is_empty() {
            return 0;
        }
        // Below 2^64 the read's (at most two) pages are looked up by key:
        // one search each, where a range search descends twice.
        if let Ok(a) = u64::try_from(address.saturating_add(out.len() as u128)) {
            let first = (address as u64) >> PAGE_BITS;
            let mut given = 0u64;
            for n in first..=(a - 1) >> PAGE_BITS {
                if let Some(page) = self.pages.get(&(addrspace, PageNo::Small(n))) {
                    given |= overlay_page(
                        u128::from(n) << PAGE_BITS,
                        page.set,
                        &page.bytes,
                        address,
                        out,
                    );
                }
            }
            return given;
        }
        let (lo, _) = split_u128(address);
        let end = address.saturating_add(out.len() as u128);
        let mut given = 0u64;
        for ((_, p), page) in self
            .pages
            .range((addrspace, lo)..)
            .take_while(|((a, _), _)| *a == addrspace)
        {
            let Some(base) = page_base_u128(p) else {
                break;
            };
            if base >= end {
                break;
            }
            given |= overlay_page(base, page.set, &page.bytes, address, out);
        }
        given
    }
}

/// [`Memory::overlay_u128`] for one page (base address `base`, `set`
/// bytes): its set bytes inside `address..address + out.len()` (at most 64
/// bytes) written into `out`, and which `out[i]` they are (bit `i`).
pub fn overlay_page(base: u128, set: u64, bytes: &[u8; 64], address: u128, out: &mut [u8]) -> u64 {
    let end = address.saturating_add(out.len() as u128);
    if base >= end || base.saturating_add(PAGE.into()) <= address {
        return 0;
    }
    // Only the page's bytes inside `address..end`.
    let from = address.saturating_sub(base) as u32;
    let to = (end - base).min(PAGE.into()) as u32;
    let want = (u64::MAX >> (64 - (to - from))) << from;
    // Inputs placed in memory are given whole: then the bytes are one copy.
    if set & want == want {
        let k = (base + u128::from(from) - address) as usize;
        let n = (to - from) as usize;
        out[k..k + n].copy_from_slice(&bytes[from as usize..to as usize]);
        return (u64::MAX >> (64 - n)) << k;
    }
    let mut set = set & want;
    let mut given = 0u64;
    while set != 0 {
        let i = set.trailing_zeros();
        set &= set - 1;
        let k = (base + u128::from(i) - address) as u32;
        out[k as usize] = bytes[i as usize];
        given |= 1 << k;
    }
    given
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn big(n: u128) -> BigUint {
        BigUint::from(n)
    }

    /// The paged memory against a map of single bytes (what it replaced)
    /// on a fixed mix of inserts and removes around page and 2^64 edges.
    #[test]
    fn behaves_as_a_map_of_bytes() {
        let addrs: Vec<BigUint> = [
            0u128,
            1,
            63,
            64,
            65,
            127,
            1000,
            u128::from(u64::MAX) - 1,
            u128::from(u64::MAX),
            u128::from(u64::MAX) + 1,
            u128::from(u64::MAX) + 64,
            u128::MAX,
        ]
        .into_iter()
        .map(big)
        .chain([
            BigUint::from(1u32) << 200u32,
            (BigUint::from(1u32) << 200u32) + 63u32,
        ])
        .collect();
        let mut m = Memory::new();
        let mut want: BTreeMap<(u32, BigUint), u8> = BTreeMap::new();
        let mut x = 0x1234_5678u64;
        for step in 0..2000u32 {
            x = crate::context::splitmix64(x);
            let a = (x % 3) as u32;
            let addr = &addrs[(x >> 8) as usize % addrs.len()];
            let v = (x >> 32) as u8;
            if x >> 40 & 3 == 0 {
                assert_eq!(
                    m.remove(a, addr),
                    want.remove(&(a, addr.clone())),
                    "step {step}"
                );
            } else {
                assert_eq!(
                    m.insert(a, addr, v),
                    want.insert((a, addr.clone()), v),
                    "step {step}"
                );
            }
            assert_eq!(m.len(), want.len());
            assert_eq!(m.get(a, addr), want.get(&(a, addr.clone())).copied());
        }
        let got: Vec<(u32, BigUint, u8)> = m.iter().collect();
        let exp: Vec<(u32, BigUint, u8)> = want
            .iter()
            .map(|((a, addr), b)| (*a, addr.clone(), *b))
            .collect();
        assert_eq!(got, exp);
        // Ranges, on every pair of listed addresses.
        for a in 0..3 {
            for lo in &addrs {
                for hi in &addrs {
                    let got: Vec<_> = m.range(a, lo, hi).collect();
                    let exp: Vec<_> = want
                        .range((a, lo.clone())..(a, hi.clone().max(lo.clone())))
                        .map(|((_, k), b)| (k.clone(), *b))
                        .collect();
                    assert_eq!(got, exp, "range {a} {lo}..{hi}");
                }
            }
        }
    }

    #[test]
    fn removing_every_byte_gives_an_equal_empty_memory() {
        let mut m = Memory::new();
        m.insert_bytes(1, &big(60), &[1, 2, 3, 4, 5, 6, 7, 8]);
        assert_eq!(m.len(), 8);
        assert_ne!(m, Memory::new());
        for i in 60..68 {
            assert!(m.remove(1, &big(i)).is_some());
        }
        assert!(m.is_empty());
        assert_eq!(m, Memory::new());
        // The same bytes written in another order are the same memory.
        let mut p = Memory::new();
        let mut q = Memory::new();
        p.insert(0, &big(5), 1);
        p.insert(0, &big(70), 2);
        q.insert(0, &big(70), 2);
        q.insert(0, &big(9), 9);
        q.insert(0, &big(5), 1);
        q.remove(0, &big(9));
        assert_eq!(p, q);
    }

    #[test]
    fn span_and_overlay() {
        let mut m = Memory::new();
        assert_eq!(m.span_u128(0), None);
        m.insert_bytes(2, &big(62), &[0xa, 0xb, 0xc]);
        m.insert(2, &big(300), 0xd);
        m.insert(3, &big(1), 0xe);
        assert_eq!(m.span_u128(2), Some((62, 300)));
        assert_eq!(m.span_u128(3), Some((1, 1)));
        let mut out = [0u8; 8];
        assert_eq!(m.overlay_u128(2, 60, &mut out), 0b11100);
        assert_eq!(out, [0, 0, 0xa, 0xb, 0xc, 0, 0, 0]);
        let mut out = [7u8; 2];
        assert_eq!(m.overlay_u128(2, 299, &mut out), 0b10);
        assert_eq!(out, [7, 0xd]);
        let mut out = [7u8; 64];
        assert_eq!(m.overlay_u128(2, 63, &mut out), 0b11);
        assert_eq!(out[..3], [0xb, 0xc, 7]);
        m.insert(2, &(BigUint::from(1u32) << 130u32), 1);
        assert_eq!(m.span_u128(2), Some((62, u128::MAX)));
    }
}
