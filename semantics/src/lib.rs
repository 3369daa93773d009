//! diopter's semantics: the DIOp expression language of the AMDGPU
//! heterogeneous-debugging extensions (both the spec's `DIExpr` dialect and the
//! `DIExpression` form AMD's LLVM fork ships), its types and data layout, its
//! stack-effect specifications as data, the well-formedness checker, the
//! location model and the reference interpreter.

pub mod access;
pub mod ast;
pub mod case;
pub mod check;
pub mod classic;
pub mod context;
pub mod dataflow;
pub mod diag;
pub mod file_check;
pub mod interp;
pub mod ir;
pub mod lifetimes;
pub mod location;
pub mod memory;
pub mod objloc;
pub mod show;
pub mod site_check;
pub mod sites;
pub mod specs;
pub mod syntax;
pub mod types;
pub mod value;
