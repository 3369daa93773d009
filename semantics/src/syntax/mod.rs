//! Reading and writing the textual forms: the lexer, the shared parser of
//! types, literals and DIOps, the one-line form and `.expr` files, and the printer.

pub mod bare;
pub mod classic;
pub mod lexer;
pub mod module;
pub mod module_print;
pub mod parser;
pub mod printer;

pub use bare::{parse_bare, parse_expr_file, Entry, Expect, ExprFile};
pub use printer::{escape_string, print_bare, print_expr, print_local_name, print_op, print_ops};
