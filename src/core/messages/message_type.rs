//! The datatypes of messages: what the collectives and point-to-point routines accept by name
//! ('MPI_LOGICAL', 'MPI_COMPLEX', ...), each with its size in bytes, its kind of element and the
//! operators that combine it. The names are those of the original's table (RPN_COMM_datyp), no
//! more and no fewer; a window's elements (`ElementType`) are a separate, smaller set.
//!
//! Sizes are those of the Fortran types as gfortran and LLVM Flang lay them out by default
//! (LOGICAL and INTEGER 4 bytes, DOUBLE PRECISION 8). A logical is true when its bytes are not
//! all zero, and a logical operator writes 1 for true and 0 for false, as both compilers store
//! .true. and .false. (and as MPI's own MPI_LOGICAL reductions do).

use std::sync::atomic::AtomicUsize;

use super::super::datatype::{find_named, normalize_name};
use super::super::operator::Operator;
use crate::error::{Error, Result};

/// What the elements of a message are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Signed integers (1, 2, 4 or 8 bytes).
    Integer,
    /// IEEE reals (4, 8 or 16 bytes).
    Real,
    /// A pair of reals, real part first (8, 16 or 32 bytes).
    Complex,
    /// Fortran logicals (4 bytes).
    Logical,
    /// Characters (1 byte).
    Character,
    /// Uninterpreted bytes (MPI_BYTE: the bitwise operators apply).
    Byte,
    /// Packed data (MPI_PACKED): moved, never combined.
    Packed,
    /// A (value, index) pair of integers or reals, for MAXLOC and MINLOC.
    Pair,
    /// MPI_DATATYPE_NULL: a name the table holds, of no element at all.
    Null,
}

/// One datatype of the original's table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MessageType {
    name: &'static str,
    code: u8,
    size: u8,
    kind: Kind,
}

const fn entry(name: &'static str, code: u8, size: u8, kind: Kind) -> MessageType {
    MessageType { name, code, size, kind }
}

/// The table, in the order of the codes the MPI shim maps to MPI datatypes (mpi/shim.c).
const TABLE: [MessageType; 23] = [
    entry("MPI_BYTE", 0, 1, Kind::Byte),
    entry("MPI_PACKED", 1, 1, Kind::Packed),
    entry("MPI_CHARACTER", 2, 1, Kind::Character),
    entry("MPI_LOGICAL", 3, 4, Kind::Logical),
    entry("MPI_INTEGER", 4, 4, Kind::Integer),
    entry("MPI_INTEGER1", 5, 1, Kind::Integer),
    entry("MPI_INTEGER2", 6, 2, Kind::Integer),
    entry("MPI_INTEGER4", 7, 4, Kind::Integer),
    entry("MPI_INTEGER8", 8, 8, Kind::Integer),
    entry("MPI_DATATYPE_NULL", 9, 0, Kind::Null),
    entry("MPI_REAL", 10, 4, Kind::Real),
    entry("MPI_REAL4", 11, 4, Kind::Real),
    entry("MPI_REAL8", 12, 8, Kind::Real),
    entry("MPI_REAL16", 13, 16, Kind::Real),
    entry("MPI_DOUBLE_PRECISION", 14, 8, Kind::Real),
    entry("MPI_COMPLEX", 15, 8, Kind::Complex),
    entry("MPI_COMPLEX8", 16, 8, Kind::Complex),
    entry("MPI_COMPLEX16", 17, 16, Kind::Complex),
    entry("MPI_COMPLEX32", 18, 32, Kind::Complex),
    entry("MPI_DOUBLE_COMPLEX", 19, 16, Kind::Complex),
    entry("MPI_2REAL", 20, 8, Kind::Pair),
    entry("MPI_2DOUBLE_PRECISION", 21, 16, Kind::Pair),
    entry("MPI_2INTEGER", 22, 8, Kind::Pair),
];

/// Names the original's table also holds that MPI-3 removed (markers of no size): known, but
/// no message can be made of them.
const REMOVED: [&str; 2] = ["MPI_UB", "MPI_LB"];

impl MessageType {
    /// Every datatype of the table, in code order.
    pub const ALL: [MessageType; 23] = TABLE;

    /// The datatype a name designates (any case, blanks around it ignored); the names of the
    /// original's table only. MPI_DATATYPE_NULL is one (of no size: `message_size` refuses it).
    pub fn from_name(name: &str) -> Result<Self> {
        static LAST: AtomicUsize = AtomicUsize::new(0);
        if let Some(at) = find_named(&TABLE, |t| t.name, name, &LAST) {
            return Ok(TABLE[at]);
        }
        let n = normalize_name(name);
        if REMOVED.contains(&n.as_str()) {
            return Err(Error::BadArgument(format!("datatype {n} was removed from MPI (MPI-3): no data can be sent as it")));
        }
        Err(Error::UnknownName { kind: "datatype", name: n })
    }

    /// The datatype of `code` (None: no such code).
    pub fn from_code(code: u32) -> Option<Self> {
        TABLE.get(code as usize).copied()
    }

    /// Its name ("MPI_LOGICAL").
    pub fn name(self) -> &'static str {
        self.name
    }

    /// Its code: its place in the table, stable, what travels between PEs and to the MPI shim.
    pub fn code(self) -> u32 {
        u32::from(self.code)
    }

    /// Size of one element in bytes (0 for MPI_DATATYPE_NULL).
    pub fn size(self) -> usize {
        usize::from(self.size)
    }

    /// What its elements are.
    pub fn kind(self) -> Kind {
        self.kind
    }

    /// The bytes of `count` elements (`count` as the caller gave it): refused when negative, when
    /// the type is MPI_DATATYPE_NULL, or when the size does not fit in memory.
    pub fn message_size(self, what: &'static str, count: i32) -> Result<usize> {
        let n = usize::try_from(count).map_err(|_| Error::Negative { what, value: i64::from(count) })?;
        if self.kind == Kind::Null {
            return Err(Error::BadArgument(format!("{what} of MPI_DATATYPE_NULL: no data can be sent as it")));
        }
        n.checked_mul(self.size()).ok_or_else(|| Error::BadArgument(format!("{what} {count} of {} is too large", self.name)))
    }

    /// Whether `op` combines elements of this type: as MPI allows (integers: arithmetic,
    /// bitwise and logical; reals: arithmetic, MIN and MAX; complex: SUM and PROD; logicals:
    /// LAND, LOR, LXOR; bytes: bitwise; pairs: MAXLOC and MINLOC), REPLACE and NO_OP on every
    /// type that has an operator. 16-byte reals and 32-byte complex are only moved: this library
    /// has no arithmetic of their width.
    pub fn check_operator(self, op: Operator) -> Result<()> {
        use Operator::*;
        let applies = match op {
            Replace | NoOp => !matches!(self.kind, Kind::Character | Kind::Packed | Kind::Null),
            Sum | Prod => matches!(self.kind, Kind::Integer) || (matches!(self.kind, Kind::Real | Kind::Complex) && self.has_arithmetic()),
            Min | Max => matches!(self.kind, Kind::Integer) || (self.kind == Kind::Real && self.has_arithmetic()),
            Band | Bor | Bxor => matches!(self.kind, Kind::Integer | Kind::Byte),
            Land | Lor | Lxor => matches!(self.kind, Kind::Integer | Kind::Logical),
            MaxLoc | MinLoc => self.kind == Kind::Pair,
        };
        if applies { Ok(()) } else { Err(Error::OperatorType { op: op.name(), dtype: self.name }) }
    }

    /// Whether combining with `op` gives the same bits in any order and grouping: integer
    /// arithmetic (wrapping), bitwise and logical operators. Not reals, whose sums depend on the
    /// grouping (and MIN/MAX on the order, for -0 and NaN): those reductions are left to MPI's
    /// own, so that the results are the original RPN_COMM's bit for bit.
    pub fn reduces_in_any_order(self, op: Operator) -> bool {
        use Operator::*;
        matches!(self.kind, Kind::Integer | Kind::Logical | Kind::Byte) && !matches!(op, Replace | NoOp | MaxLoc | MinLoc)
    }

    /// Whether `op` over values of this type gives the same bits whatever the order of
    /// combination: `reduces_in_any_order`'s, and the extrema of reals (no rounding).
    pub fn reduces_exactly(self, op: Operator) -> bool {
        self.reduces_in_any_order(op) || (self.kind == Kind::Real && matches!(op, Operator::Max | Operator::Min))
    }

    /// Reals and complex of 4- or 8-byte parts (not REAL16, COMPLEX32).
    fn has_arithmetic(self) -> bool {
        match self.kind {
            Kind::Real => self.size <= 8,
            Kind::Complex => self.size <= 16,
            _ => true,
        }
    }

    /// Element-wise `target[i] = target[i] OP operand[i]` on byte buffers of this type, `op`
    /// accepted by `check_operator` (another leaves the target as it is).
    pub fn combine(self, op: Operator, target: &mut [u8], operand: &[u8]) {
        if self.combine_common(op, target, operand) {
            return;
        }
        let size = self.size().max(1);
        for (t, o) in target.chunks_exact_mut(size).zip(operand.chunks_exact(size)) {
            match op {
                Operator::Replace => t.copy_from_slice(o),
                Operator::NoOp => {}
                _ => self.combine_one(op, t, o),
            }
        }
    }

    /// `combine` for the reductions a model makes by the hundred per step (sums, minima and
    /// maxima of reals and integers), with the operator chosen once for the whole buffer instead of
    /// once per element; the same results as `combine_one`'s. False: not one of them.
    fn combine_common(self, op: Operator, target: &mut [u8], operand: &[u8]) -> bool {
        macro_rules! each {
            ($t:ty, $f:expr) => {{
                let f = $f;
                const N: usize = size_of::<$t>();
                for (t, o) in target.chunks_exact_mut(N).zip(operand.chunks_exact(N)) {
                    let r: $t = f(<$t>::from_ne_bytes(read(t)), <$t>::from_ne_bytes(read(o)));
                    t.copy_from_slice(&r.to_ne_bytes());
                }
                true
            }};
        }
        use Operator::{Max, Min, Sum};
        match (self.kind, self.size, op) {
            (Kind::Real, 8, Sum) => each!(f64, |a: f64, b: f64| a + b),
            (Kind::Real, 8, Max) => each!(f64, f64::max),
            (Kind::Real, 8, Min) => each!(f64, f64::min),
            // (in double precision, as combine_one: the same bits, + and max being correctly rounded)
            (Kind::Real, 4, Sum) => each!(f32, |a: f32, b: f32| (f64::from(a) + f64::from(b)) as f32),
            (Kind::Real, 4, Max) => each!(f32, |a: f32, b: f32| f64::from(a).max(f64::from(b)) as f32),
            (Kind::Real, 4, Min) => each!(f32, |a: f32, b: f32| f64::from(a).min(f64::from(b)) as f32),
            (Kind::Integer, 4, Sum) => each!(i32, i32::wrapping_add),
            (Kind::Integer, 4, Max) => each!(i32, i32::max),
            (Kind::Integer, 4, Min) => each!(i32, i32::min),
            (Kind::Integer, 8, Sum) => each!(i64, i64::wrapping_add),
            (Kind::Integer, 8, Max) => each!(i64, i64::max),
            (Kind::Integer, 8, Min) => each!(i64, i64::min),
            _ => false,
        }
    }

    fn combine_one(self, op: Operator, t: &mut [u8], o: &[u8]) {
        match (self.kind, self.size) {
            (Kind::Integer, 1) => put(t, combine_int(op, read::<1>(t)[0] as i8 as i64, read::<1>(o)[0] as i8 as i64) as i8 as u8),
            (Kind::Integer, 2) => {
                let r = combine_int(op, i16::from_ne_bytes(read(t)).into(), i16::from_ne_bytes(read(o)).into()) as i16;
                t.copy_from_slice(&r.to_ne_bytes())
            }
            (Kind::Integer, 4) => {
                let r = combine_int(op, i32::from_ne_bytes(read(t)).into(), i32::from_ne_bytes(read(o)).into()) as i32;
                t.copy_from_slice(&r.to_ne_bytes())
            }
            (Kind::Integer, _) => {
                let r = combine_int(op, i64::from_ne_bytes(read(t)), i64::from_ne_bytes(read(o)));
                t.copy_from_slice(&r.to_ne_bytes())
            }
            (Kind::Byte, _) => put(t, combine_int(op, i64::from(t[0]), i64::from(o[0])) as u8),
            (Kind::Logical, _) => {
                let r = combine_int(op, i64::from(read::<4>(t) != [0; 4]), i64::from(read::<4>(o) != [0; 4])) as i32;
                t.copy_from_slice(&r.to_ne_bytes())
            }
            (Kind::Real, 4) => {
                let r = combine_real(op, f32::from_ne_bytes(read(t)).into(), f32::from_ne_bytes(read(o)).into()) as f32;
                t.copy_from_slice(&r.to_ne_bytes())
            }
            (Kind::Real, 8) => {
                let r = combine_real(op, f64::from_ne_bytes(read(t)), f64::from_ne_bytes(read(o)));
                t.copy_from_slice(&r.to_ne_bytes())
            }
            (Kind::Complex, 8) => {
                let f = |b: &[u8], i: usize| f32::from_ne_bytes(read(&b[4 * i..]));
                let (re, im) = combine_complex32(op, (f(t, 0), f(t, 1)), (f(o, 0), f(o, 1)));
                t[..4].copy_from_slice(&re.to_ne_bytes());
                t[4..].copy_from_slice(&im.to_ne_bytes());
            }
            (Kind::Complex, 16) => {
                let f = |b: &[u8], i: usize| f64::from_ne_bytes(read(&b[8 * i..]));
                let (re, im) = combine_complex64(op, (f(t, 0), f(t, 1)), (f(o, 0), f(o, 1)));
                t[..8].copy_from_slice(&re.to_ne_bytes());
                t[8..].copy_from_slice(&im.to_ne_bytes());
            }
            (Kind::Pair, _) => self.combine_pair(op, t, o),
            // refused by check_operator: nothing to combine
            _ => {}
        }
    }

    /// MAXLOC and MINLOC on (value, index) pairs: the larger (smaller) value with its index, and
    /// the smaller index of equal values, as MPI defines them.
    fn combine_pair(self, op: Operator, t: &mut [u8], o: &[u8]) {
        let half = self.size() / 2;
        let value = |b: &[u8]| -> f64 {
            match self.name {
                "MPI_2INTEGER" => i32::from_ne_bytes(read(b)).into(),
                "MPI_2REAL" => f32::from_ne_bytes(read(b)).into(),
                _ => f64::from_ne_bytes(read(b)),
            }
        };
        let (tv, ov) = (value(t), value(o));
        let (ti, oi) = (value(&t[half..]), value(&o[half..]));
        let take_operand = match op {
            Operator::MaxLoc => ov > tv || (ov == tv && oi < ti),
            Operator::MinLoc => ov < tv || (ov == tv && oi < ti),
            _ => false,
        };
        if take_operand {
            t.copy_from_slice(o);
        }
    }
}

/// The first N bytes of `b` (a chunk of one element: long enough by construction).
fn read<const N: usize>(b: &[u8]) -> [u8; N] {
    b[..N].try_into().expect("an element's bytes")
}

fn put(t: &mut [u8], v: u8) {
    t[0] = v;
}

/// Integer arithmetic wraps as Fortran integers do in practice; logical operators give 1 or 0.
fn combine_int(op: Operator, a: i64, b: i64) -> i64 {
    let truth = |v: i64| v != 0;
    match op {
        Operator::Sum => a.wrapping_add(b),
        Operator::Prod => a.wrapping_mul(b),
        Operator::Min => a.min(b),
        Operator::Max => a.max(b),
        Operator::Band => a & b,
        Operator::Bor => a | b,
        Operator::Bxor => a ^ b,
        Operator::Land => i64::from(truth(a) && truth(b)),
        Operator::Lor => i64::from(truth(a) || truth(b)),
        Operator::Lxor => i64::from(truth(a) != truth(b)),
        Operator::Replace => b,
        Operator::NoOp | Operator::MaxLoc | Operator::MinLoc => a,
    }
}

fn combine_real(op: Operator, a: f64, b: f64) -> f64 {
    match op {
        Operator::Sum => a + b,
        Operator::Prod => a * b,
        Operator::Min => a.min(b),
        Operator::Max => a.max(b),
        Operator::Replace => b,
        _ => a,
    }
}

/// SUM and PROD of single-precision complex numbers, computed in single precision as MPI does.
fn combine_complex32(op: Operator, (ar, ai): (f32, f32), (br, bi): (f32, f32)) -> (f32, f32) {
    match op {
        Operator::Sum => (ar + br, ai + bi),
        Operator::Prod => (ar * br - ai * bi, ar * bi + ai * br),
        _ => (ar, ai),
    }
}

fn combine_complex64(op: Operator, (ar, ai): (f64, f64), (br, bi): (f64, f64)) -> (f64, f64) {
    match op {
        Operator::Sum => (ar + br, ai + bi),
        Operator::Prod => (ar * br - ai * bi, ar * bi + ai * br),
        _ => (ar, ai),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_common_reductions_give_the_bits_of_the_general_one() {
        // values of every magnitude and sign, NaN and infinities included
        let reals = [0.0f64, -0.0, 1.0, -2.5, 1e300, -1e-300, 3.0e38, f64::NAN, f64::INFINITY, 0.1, 7.0e-46, -1.0e10];
        for name in ["MPI_REAL8", "MPI_REAL", "MPI_INTEGER", "MPI_INTEGER8"] {
            let t = MessageType::from_name(name).unwrap();
            for op in [Operator::Sum, Operator::Max, Operator::Min] {
                let n = reals.len();
                let bytes = |shift: usize| -> Vec<u8> {
                    (0..n)
                        .flat_map(|i| {
                            let v = reals[(i + shift) % n];
                            match name {
                                "MPI_REAL8" => v.to_ne_bytes().to_vec(),
                                "MPI_REAL" => (v as f32).to_ne_bytes().to_vec(),
                                "MPI_INTEGER" => ((v * 3.0) as i32).wrapping_add(i32::MAX - 2).to_ne_bytes().to_vec(),
                                _ => ((v * 7.0) as i64).wrapping_add(i64::MAX - 5).to_ne_bytes().to_vec(),
                            }
                        })
                        .collect()
                };
                let (mut fast, operand) = (bytes(0), bytes(5));
                let mut general = fast.clone();
                assert!(t.combine_common(op, &mut fast, &operand));
                for (g, o) in general.chunks_exact_mut(t.size()).zip(operand.chunks_exact(t.size())) {
                    t.combine_one(op, g, o);
                }
                assert_eq!(fast, general, "{name} {}", op.name());
            }
        }
    }

    fn t(name: &str) -> MessageType {
        MessageType::from_name(name).unwrap()
    }

    fn bytes_of<const N: usize>(words: &[[u8; N]]) -> Vec<u8> {
        words.concat()
    }

    /// Integers and logicals combine to the same bits in any order (wrapping sums); reals never
    /// count as such, even for MAX (-0 against 0), nor pairs.
    #[test]
    fn which_reductions_any_order_gives_the_same_bits() {
        use Operator::*;
        for (name, op) in [("MPI_INTEGER", Sum), ("MPI_INTEGER8", Prod), ("MPI_INTEGER", Max), ("MPI_LOGICAL", Lor), ("MPI_BYTE", Bxor)] {
            assert!(t(name).reduces_in_any_order(op), "{name} {}", op.name());
        }
        for (name, op) in [("MPI_REAL", Sum), ("MPI_DOUBLE_PRECISION", Max), ("MPI_2INTEGER", MaxLoc), ("MPI_INTEGER", Replace)] {
            assert!(!t(name).reduces_in_any_order(op), "{name} {}", op.name());
        }
        let (big, other) = ((i32::MAX - 1).to_ne_bytes(), 5i32.to_ne_bytes());
        let (mut ab, mut ba) = (big.to_vec(), other.to_vec());
        t("MPI_INTEGER").combine(Sum, &mut ab, &other);
        t("MPI_INTEGER").combine(Sum, &mut ba, &big);
        assert_eq!(ab, ba);
    }

    #[test]
    fn every_name_of_the_original_table_and_no_other() {
        for (i, m) in MessageType::ALL.iter().enumerate() {
            assert_eq!(m.code() as usize, i);
            assert_eq!(MessageType::from_code(m.code()), Some(*m));
            assert_eq!(t(&format!("  {}  ", m.name().to_lowercase())), *m);
        }
        assert_eq!(MessageType::from_code(23), None);
        for refused in ["MPI_DOUBLE", "MPI_INT", "MPI_FLOAT", "MPI_INTEGER16", "MPI_2COMPLEX", "LOGICAL", ""] {
            assert!(matches!(MessageType::from_name(refused), Err(Error::UnknownName { .. })), "{refused}");
        }
        let ub = MessageType::from_name("mpi_ub").unwrap_err().to_string();
        assert!(ub.contains("MPI_UB") && ub.contains("removed"), "{ub}");
    }

    #[test]
    fn sizes_and_kinds() {
        let expect = [
            ("MPI_LOGICAL", 4, Kind::Logical),
            ("MPI_CHARACTER", 1, Kind::Character),
            ("MPI_BYTE", 1, Kind::Byte),
            ("MPI_INTEGER2", 2, Kind::Integer),
            ("MPI_INTEGER1", 1, Kind::Integer),
            ("MPI_COMPLEX", 8, Kind::Complex),
            ("MPI_COMPLEX8", 8, Kind::Complex),
            ("MPI_DOUBLE_COMPLEX", 16, Kind::Complex),
            ("MPI_COMPLEX32", 32, Kind::Complex),
            ("MPI_DOUBLE_PRECISION", 8, Kind::Real),
            ("MPI_REAL16", 16, Kind::Real),
            ("MPI_2DOUBLE_PRECISION", 16, Kind::Pair),
            ("MPI_2INTEGER", 8, Kind::Pair),
        ];
        for (name, size, kind) in expect {
            assert_eq!((t(name).size(), t(name).kind()), (size, kind), "{name}");
        }
        assert_eq!(t("MPI_COMPLEX").message_size("count", 3).unwrap(), 24);
        assert!(matches!(t("MPI_LOGICAL").message_size("count", -1), Err(Error::Negative { .. })));
        assert!(t("MPI_DATATYPE_NULL").message_size("count", 0).is_err());
    }

    #[test]
    fn operators_apply_as_mpi_allows() {
        let ok = |name: &str, op: Operator| t(name).check_operator(op).is_ok();
        assert!(ok("MPI_LOGICAL", Operator::Lor) && ok("MPI_LOGICAL", Operator::Land) && ok("MPI_LOGICAL", Operator::Lxor));
        assert!(!ok("MPI_LOGICAL", Operator::Sum) && !ok("MPI_LOGICAL", Operator::Bor));
        assert!(ok("MPI_COMPLEX", Operator::Sum) && ok("MPI_DOUBLE_COMPLEX", Operator::Prod));
        assert!(!ok("MPI_COMPLEX", Operator::Max) && !ok("MPI_COMPLEX32", Operator::Sum));
        assert!(ok("MPI_INTEGER2", Operator::Max) && ok("MPI_INTEGER1", Operator::Band) && ok("MPI_INTEGER", Operator::Lor));
        assert!(ok("MPI_BYTE", Operator::Bxor) && !ok("MPI_BYTE", Operator::Sum));
        assert!(!ok("MPI_CHARACTER", Operator::Max) && !ok("MPI_CHARACTER", Operator::Replace));
        assert!(ok("MPI_2REAL", Operator::MaxLoc) && !ok("MPI_REAL", Operator::MinLoc) && !ok("MPI_2INTEGER", Operator::Sum));
        assert!(!ok("MPI_REAL16", Operator::Sum) && ok("MPI_REAL16", Operator::Replace));
        assert!(!ok("MPI_REAL8", Operator::Band));
        let e = t("MPI_LOGICAL").check_operator(Operator::Sum).unwrap_err().to_string();
        assert!(e.contains("MPI_SUM") && e.contains("MPI_LOGICAL"), "{e}");
    }

    #[test]
    fn logical_operators_read_any_nonzero_as_true_and_write_one_or_zero() {
        let l = t("MPI_LOGICAL");
        let v = |x: i32| x.to_ne_bytes();
        let cases =
            [(Operator::Lor, [0, 0, 7, -1], [0, 1, 0, 1], [0, 1, 1, 1]), (Operator::Land, [0, 0, 7, -1], [0, 1, 0, 2], [0, 0, 0, 1])];
        for (op, a, b, want) in cases {
            let mut target = bytes_of(&a.map(v));
            l.combine(op, &mut target, &bytes_of(&b.map(v)));
            assert_eq!(target, bytes_of(&want.map(v)), "{}", op.name());
        }
        let mut target = bytes_of(&[1, 1, 0, 0].map(v));
        l.combine(Operator::Lxor, &mut target, &bytes_of(&[1, 0, 5, 0].map(v)));
        assert_eq!(target, bytes_of(&[0, 1, 1, 0].map(v)));
    }

    #[test]
    fn complex_sum_and_product() {
        let c = t("MPI_COMPLEX");
        let z = |re: f32, im: f32| [re.to_ne_bytes(), im.to_ne_bytes()].concat();
        let mut target = [z(1.0, 2.0), z(0.5, -1.0)].concat();
        c.combine(Operator::Sum, &mut target, &[z(3.0, -4.0), z(0.25, 0.0)].concat());
        assert_eq!(target, [z(4.0, -2.0), z(0.75, -1.0)].concat());
        c.combine(Operator::Prod, &mut target, &[z(0.0, 1.0), z(2.0, 0.0)].concat());
        assert_eq!(target, [z(2.0, 4.0), z(1.5, -2.0)].concat());
        let d = t("MPI_DOUBLE_COMPLEX");
        let w = |re: f64, im: f64| [re.to_ne_bytes(), im.to_ne_bytes()].concat();
        let mut target = w(1.0, 1.0);
        d.combine(Operator::Prod, &mut target, &w(1.0, -1.0));
        assert_eq!(target, w(2.0, 0.0));
    }

    #[test]
    fn narrow_integers_and_bytes_wrap_in_their_width() {
        let i2 = t("MPI_INTEGER2");
        let mut target = [i16::MAX.to_ne_bytes(), (-5i16).to_ne_bytes()].concat();
        i2.combine(Operator::Sum, &mut target, &[1i16.to_ne_bytes(), 3i16.to_ne_bytes()].concat());
        assert_eq!(target, [i16::MIN.to_ne_bytes(), (-2i16).to_ne_bytes()].concat());
        let mut m = (-3i16).to_ne_bytes().to_vec();
        i2.combine(Operator::Max, &mut m, &2i16.to_ne_bytes());
        assert_eq!(m, 2i16.to_ne_bytes());
        let mut b = vec![0b1100u8, 0xF0];
        t("MPI_BYTE").combine(Operator::Bxor, &mut b, &[0b1010, 0x0F]);
        assert_eq!(b, [0b0110, 0xFF]);
        let mut i1 = vec![(-128i8) as u8];
        t("MPI_INTEGER1").combine(Operator::Min, &mut i1, &[5]);
        assert_eq!(i1, [(-128i8) as u8]);
    }

    #[test]
    fn maxloc_and_minloc_keep_the_smaller_index_of_equal_values() {
        let p = t("MPI_2INTEGER");
        let pair = |v: i32, i: i32| [v.to_ne_bytes(), i.to_ne_bytes()].concat();
        let mut target = [pair(5, 3), pair(5, 3), pair(1, 0)].concat();
        p.combine(Operator::MaxLoc, &mut target, &[pair(7, 4), pair(5, 1), pair(0, 9)].concat());
        assert_eq!(target, [pair(7, 4), pair(5, 1), pair(1, 0)].concat());
        let mut target = [pair(5, 3), pair(5, 3)].concat();
        p.combine(Operator::MinLoc, &mut target, &[pair(2, 8), pair(5, 4)].concat());
        assert_eq!(target, [pair(2, 8), pair(5, 3)].concat());
        let r = t("MPI_2DOUBLE_PRECISION");
        let dpair = |v: f64, i: f64| [v.to_ne_bytes(), i.to_ne_bytes()].concat();
        let mut target = dpair(1.5, 2.0);
        r.combine(Operator::MinLoc, &mut target, &dpair(-1.0, 7.0));
        assert_eq!(target, dpair(-1.0, 7.0));
    }

    #[test]
    fn replace_and_no_op_on_any_combinable_type() {
        let c = t("MPI_DOUBLE_COMPLEX");
        let mut target = vec![1u8; 16];
        c.combine(Operator::NoOp, &mut target, &[2u8; 16]);
        assert_eq!(target, vec![1u8; 16]);
        c.combine(Operator::Replace, &mut target, &[2u8; 16]);
        assert_eq!(target, vec![2u8; 16]);
    }
}
