//! `diopter eval`: arrives with the reference interpreter.
use std::process::ExitCode;

pub const CONTEXT_HELP: &str = "";

#[derive(clap::Args)]
pub struct Args {
    #[arg(short = 'e', long = "expr")]
    pub expr: Option<String>,
}

pub fn run(_a: &Args) -> ExitCode {
    ExitCode::from(2)
}
