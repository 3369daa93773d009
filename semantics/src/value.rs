//! TEMPORARY stub: replaced by the value helper's module.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum FloatKind {
    Half,
    BFloat,
    Float,
    Double,
    Fp128,
    X86Fp80,
}
impl FloatKind {
    pub fn width(self) -> u64 {
        match self {
            FloatKind::Half | FloatKind::BFloat => 16,
            FloatKind::Float => 32,
            FloatKind::Double => 64,
            FloatKind::Fp128 => 128,
            FloatKind::X86Fp80 => 80,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            FloatKind::Half => "half",
            FloatKind::BFloat => "bfloat",
            FloatKind::Float => "float",
            FloatKind::Double => "double",
            FloatKind::Fp128 => "fp128",
            FloatKind::X86Fp80 => "x86_fp80",
        }
    }
}
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Bits {
    width: u64,
    v: Vec<u8>,
}
impl Bits {
    pub fn width(&self) -> u64 {
        self.width
    }
}
pub fn parse_float_literal(k: FloatKind, _text: &str) -> Result<Bits, String> {
    Ok(Bits {
        width: k.width(),
        v: vec![],
    })
}
pub fn format_float_literal(_k: FloatKind, _b: &Bits) -> String {
    "0.0".into()
}
