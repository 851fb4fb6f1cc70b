//! Accumulate operators: names, which element types they apply to, and their
//! element-wise arithmetic on raw bit patterns (so transports can run them inside
//! compare-and-swap loops on shared memory).

use super::datatype::{ElementType, find_named, normalize_name};
use crate::error::{Error, Result};

/// The name of the original's table that designates no operator (RPN_COMM_oper gives MPI's
/// null operator for it).
pub const NULL_NAME: &str = "MPI_OP_NULL";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
/// The reduction and accumulate operators (the MPI operators of the same names).
pub enum Operator {
    /// MPI_SUM.
    Sum,
    /// MPI_PROD.
    Prod,
    /// MPI_MIN.
    Min,
    /// MPI_MAX.
    Max,
    /// MPI_BAND.
    Band,
    /// MPI_BOR.
    Bor,
    /// MPI_BXOR.
    Bxor,
    /// MPI_LAND.
    Land,
    /// MPI_LOR.
    Lor,
    /// MPI_LXOR.
    Lxor,
    /// MPI_REPLACE.
    Replace,
    /// MPI_NO_OP.
    NoOp,
    /// MPI_MAXLOC (on (value, index) pairs: messages only).
    MaxLoc,
    /// MPI_MINLOC.
    MinLoc,
}

impl Operator {
    /// Every operator.
    pub const ALL: [Operator; 14] = [
        Self::Sum,
        Self::Prod,
        Self::Min,
        Self::Max,
        Self::Band,
        Self::Bor,
        Self::Bxor,
        Self::Land,
        Self::Lor,
        Self::Lxor,
        Self::Replace,
        Self::NoOp,
        Self::MaxLoc,
        Self::MinLoc,
    ];

    /// The operator's MPI name ("MPI_SUM", ...).
    pub fn name(self) -> &'static str {
        match self {
            Self::Sum => "MPI_SUM",
            Self::Prod => "MPI_PROD",
            Self::Min => "MPI_MIN",
            Self::Max => "MPI_MAX",
            Self::Band => "MPI_BAND",
            Self::Bor => "MPI_BOR",
            Self::Bxor => "MPI_BXOR",
            Self::Land => "MPI_LAND",
            Self::Lor => "MPI_LOR",
            Self::Lxor => "MPI_LXOR",
            Self::Replace => "MPI_REPLACE",
            Self::NoOp => "MPI_NO_OP",
            Self::MaxLoc => "MPI_MAXLOC",
            Self::MinLoc => "MPI_MINLOC",
        }
    }

    /// The operator an MPI name designates (case and blanks around it do not matter).
    /// MPI_OP_NULL, which the original's table holds, combines nothing: refused with its reason.
    pub fn from_name(name: &str) -> Result<Self> {
        static LAST: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        if let Some(at) = find_named(&Self::ALL, |op| op.name(), name, &LAST) {
            return Ok(Self::ALL[at]);
        }
        let n = normalize_name(name);
        if n == NULL_NAME {
            return Err(Error::BadArgument(format!("{NULL_NAME} combines nothing: no reduction can be made with it")));
        }
        Self::ALL.into_iter().find(|op| op.name() == n).ok_or(Error::UnknownName { kind: "operator", name: n })
    }

    /// Stable small code used inside handles.
    pub fn code(self) -> u32 {
        Self::ALL.iter().position(|&op| op == self).unwrap_or(0) as u32 + 1
    }

    /// The operator with this code (None: no such code).
    pub fn from_code(code: u32) -> Option<Self> {
        (code as usize).checked_sub(1).and_then(|i| Self::ALL.get(i).copied())
    }

    /// Bitwise and logical operators make no sense on reals (as in MPI), MAXLOC and MINLOC on
    /// any window (they combine (value, index) pairs, which no window holds).
    pub fn check_type(self, dtype: ElementType) -> Result<()> {
        let integer_only = matches!(self, Self::Band | Self::Bor | Self::Bxor | Self::Land | Self::Lor | Self::Lxor);
        if (integer_only && !dtype.is_integer()) || matches!(self, Self::MaxLoc | Self::MinLoc) {
            return Err(Error::OperatorType { op: self.name(), dtype: dtype.name() });
        }
        Ok(())
    }

    /// `target OP operand` on 4-byte elements given as bit patterns.
    pub fn apply32(self, dtype: ElementType, target: u32, operand: u32) -> u32 {
        match dtype {
            ElementType::Real32 => {
                let (a, b) = (f32::from_bits(target), f32::from_bits(operand));
                self.apply_real(a as f64, b as f64).map_or(target, |v| (v as f32).to_bits())
            }
            _ => self.apply_int(target as i32 as i64, operand as i32 as i64) as i32 as u32,
        }
    }

    /// `target OP operand` on 8-byte elements given as bit patterns.
    pub fn apply64(self, dtype: ElementType, target: u64, operand: u64) -> u64 {
        match dtype {
            ElementType::Real64 => {
                let (a, b) = (f64::from_bits(target), f64::from_bits(operand));
                self.apply_real(a, b).map_or(target, f64::to_bits)
            }
            _ => self.apply_int64(target as i64, operand as i64) as u64,
        }
    }

    fn apply_real(self, a: f64, b: f64) -> Option<f64> {
        Some(match self {
            Self::Sum => a + b,
            Self::Prod => a * b,
            Self::Min => a.min(b),
            Self::Max => a.max(b),
            Self::Replace => b,
            // NO_OP and (refused earlier) integer-only operators leave the target unchanged.
            _ => return None,
        })
    }

    /// 32-bit integer arithmetic wraps like Fortran integers do in practice.
    fn apply_int(self, a: i64, b: i64) -> i64 {
        (self.apply_int64(a, b) as i32) as i64
    }

    fn apply_int64(self, a: i64, b: i64) -> i64 {
        let truth = |v: i64| v != 0;
        match self {
            Self::Sum => a.wrapping_add(b),
            Self::Prod => a.wrapping_mul(b),
            Self::Min => a.min(b),
            Self::Max => a.max(b),
            Self::Band => a & b,
            Self::Bor => a | b,
            Self::Bxor => a ^ b,
            Self::Land => (truth(a) && truth(b)) as i64,
            Self::Lor => (truth(a) || truth(b)) as i64,
            Self::Lxor => (truth(a) != truth(b)) as i64,
            Self::Replace => b,
            // MAXLOC and MINLOC are refused on windows (check_type)
            Self::NoOp | Self::MaxLoc | Self::MinLoc => a,
        }
    }

    /// Element-wise `target[i] = target[i] OP operand[i]` on byte buffers of `dtype` elements.
    /// Used by reductions and by tests as the sequential model of an accumulate.
    pub fn apply_bytes(self, dtype: ElementType, target: &mut [u8], operand: &[u8]) {
        let size = dtype.size();
        for (t, o) in target.chunks_exact_mut(size).zip(operand.chunks_exact(size)) {
            if size == 4 {
                let r = self.apply32(dtype, u32::from_ne_bytes(t.try_into().unwrap()), u32::from_ne_bytes(o.try_into().unwrap()));
                t.copy_from_slice(&r.to_ne_bytes());
            } else {
                let r = self.apply64(dtype, u64::from_ne_bytes(t.try_into().unwrap()), u64::from_ne_bytes(o.try_into().unwrap()));
                t.copy_from_slice(&r.to_ne_bytes());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    #[test]
    fn names_round_trip() {
        for op in Operator::ALL {
            assert_eq!(Operator::from_name(&format!("{}  ", op.name().to_lowercase())).unwrap(), op);
            assert_eq!(Operator::from_code(op.code()), Some(op));
        }
        assert!(Operator::from_name("MPI_MAXLOCS").is_err());
        let null = Operator::from_name("mpi_op_null").unwrap_err().to_string();
        assert!(null.contains("MPI_OP_NULL combines nothing"), "{null}");
        assert_eq!(Operator::from_code(0), None);
        assert_eq!(Operator::from_code(15), None);
    }

    #[test]
    fn bitwise_on_reals_refused() {
        assert!(Operator::Band.check_type(ElementType::Real32).is_err());
        assert!(Operator::Lxor.check_type(ElementType::Real64).is_err());
        assert!(Operator::Band.check_type(ElementType::Int64).is_ok());
        assert!(Operator::Max.check_type(ElementType::Real64).is_ok());
        assert!(Operator::MaxLoc.check_type(ElementType::Int32).is_err());
        assert!(Operator::MinLoc.check_type(ElementType::Real64).is_err());
    }

    #[test]
    fn integer_arithmetic() {
        let t = ElementType::Int32;
        let f = |op: Operator, a: i32, b: i32| op.apply32(t, a as u32, b as u32) as i32;
        assert_eq!(f(Operator::Sum, 5, -7), -2);
        assert_eq!(f(Operator::Sum, i32::MAX, 1), i32::MIN);
        assert_eq!(f(Operator::Prod, -3, 4), -12);
        assert_eq!(f(Operator::Min, -3, 4), -3);
        assert_eq!(f(Operator::Max, -3, 4), 4);
        assert_eq!(f(Operator::Band, 0b1100, 0b1010), 0b1000);
        assert_eq!(f(Operator::Bor, 0b1100, 0b1010), 0b1110);
        assert_eq!(f(Operator::Bxor, 0b1100, 0b1010), 0b0110);
        assert_eq!(f(Operator::Land, 7, 0), 0);
        assert_eq!(f(Operator::Lor, 7, 0), 1);
        assert_eq!(f(Operator::Lxor, 7, 3), 0);
        assert_eq!(f(Operator::Replace, 7, 3), 3);
        assert_eq!(f(Operator::NoOp, 7, 3), 7);
        let g = |op: Operator, a: i64, b: i64| op.apply64(ElementType::Int64, a as u64, b as u64) as i64;
        assert_eq!(g(Operator::Sum, 1 << 40, 1 << 40), 1 << 41);
        assert_eq!(g(Operator::Min, -1 << 40, 5), -1 << 40);
    }

    #[test]
    fn real_arithmetic() {
        let f = |op: Operator, a: f32, b: f32| f32::from_bits(op.apply32(ElementType::Real32, a.to_bits(), b.to_bits()));
        assert_relative_eq!(f(Operator::Sum, 1.5, 2.25), 3.75);
        assert_relative_eq!(f(Operator::Prod, 1.5, -2.0), -3.0);
        assert_relative_eq!(f(Operator::Max, 1.5, -2.0), 1.5);
        assert_relative_eq!(f(Operator::NoOp, 1.5, -2.0), 1.5);
        let g = |op: Operator, a: f64, b: f64| f64::from_bits(op.apply64(ElementType::Real64, a.to_bits(), b.to_bits()));
        assert_relative_eq!(g(Operator::Sum, 0.1, 0.2), 0.3, epsilon = 1e-15);
        assert_relative_eq!(g(Operator::Replace, 0.1, 0.2), 0.2);
        assert_relative_eq!(g(Operator::Min, 0.1, 0.2), 0.1);
    }

    #[test]
    fn apply_bytes_is_elementwise() {
        let mut t: Vec<u8> = [1i64, 2, 3].iter().flat_map(|v| v.to_ne_bytes()).collect();
        let o: Vec<u8> = [10i64, 20, 30].iter().flat_map(|v| v.to_ne_bytes()).collect();
        Operator::Sum.apply_bytes(ElementType::Int64, &mut t, &o);
        let r: Vec<i64> = t.chunks_exact(8).map(|c| i64::from_ne_bytes(c.try_into().unwrap())).collect();
        assert_eq!(r, vec![11, 22, 33]);
    }
}
