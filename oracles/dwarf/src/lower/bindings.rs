//! Where the expression's inputs are: the location the context gives an
//! argument, the referrer or a type object, as the [`Form`] the lowering
//! starts from (DWARF registers named for entities, implicit pointers'
//! targets).

use super::*;

impl Lowerer<'_> {
    pub(super) fn register(&mut self, name: &str) -> u16 {
        match self.registers.iter().position(|r| r == name) {
            Some(i) => i as u16,
            None => {
                self.registers.push(name.to_string());
                (self.registers.len() - 1) as u16
            }
        }
    }

    pub(super) fn implicit_target(&mut self, loc: LocDesc, ty: Type) -> usize {
        self.implicit_targets.push(ImplicitTarget { loc, ty });
        self.implicit_targets.len() - 1
    }

    /// The form of an input's location as the context gives it.
    pub(super) fn binding(&mut self, loc: &LocDesc, at: usize, depth: usize) -> R<Form> {
        if loc.singles.len() > 1 && self.ext {
            return Ok(Form::Multi(loc.clone()));
        }
        let [s] = loc.singles.as_slice() else {
            return nl(
                Some(at),
                format!(
                    "an input with {} single locations: a DWARF 5 expression describes one location",
                    loc.singles.len()
                ),
            );
        };
        self.single_binding(s, at, depth)
    }

    pub(super) fn single_binding(&mut self, s: &Single, at: usize, depth: usize) -> R<Form> {
        if depth > 4 {
            return nl(Some(at), "an input nested too deeply");
        }
        let off = &s.offset;
        match &s.storage {
            Storage::Memory { addrspace } => Ok(Form::Mem {
                space: *addrspace,
                bit: off.clone(),
            }),
            Storage::Entity { name } => {
                let Some(bit) = off.to_u64() else {
                    return nl(
                        Some(at),
                        format!("an entity at the negative bit offset {off}: DWARF registers have no negative offsets"),
                    );
                };
                if name.len() > 256 {
                    return nl(Some(at), "an entity name over 256 bytes");
                }
                let reg = self.register(name);
                if usize::from(reg) >= usize::from(UNDEF_REG) {
                    return nl(Some(at), "too many registers");
                }
                Ok(Form::Reg { reg, bit })
            }
            // Outside the value, as an offset would put it (see
            // `Form::ConstBefore`).
            Storage::Implicit { value } => match off.to_u64() {
                Some(k) => Ok(Form::Const(value.clone(), k)),
                None if off.sign() == num_bigint::Sign::Minus => {
                    Ok(Form::ConstBefore(value.clone(), off.clone()))
                }
                None => nl(
                    Some(at),
                    format!("an implicit value at bit offset {off} outside it"),
                ),
            },
            Storage::Undefined => Ok(Form::Undef),
            Storage::ImplicitAddress {
                target, target_ty, ..
            } => {
                if !off.is_zero() {
                    return nl(Some(at), "an implicit pointer at a bit offset");
                }
                Ok(Form::ImplPtr(
                    self.implicit_target((**target).clone(), target_ty.clone()),
                ))
            }
            Storage::Composite { parts } => {
                if !off.is_zero() {
                    return nl(Some(at), "a composite input at a bit offset");
                }
                let mut out = Vec::new();
                for p in parts {
                    if p.loc.singles.len() > 1 && self.ext {
                        out.push((Form::Multi(p.loc.clone()), p.bits));
                        continue;
                    }
                    let [ps] = p.loc.singles.as_slice() else {
                        return nl(
                            Some(at),
                            "a composite part with several single locations: a DWARF 5 piece has one location",
                        );
                    };
                    let f = self.single_binding(ps, at, depth + 1)?;
                    out.push((f, p.bits));
                }
                Ok(Form::Composite(out))
            }
        }
    }

    /// The context's location for the input an `Arg`/`Referrer`/`TypeObject`
    /// node names (`None`: poison, undefined).
    pub(super) fn input_location(&self, node: usize) -> R<Option<LocDesc>> {
        let n = &self.nodes[node];
        let at = Some(n.op_index);
        let poison = |i: u64| {
            self.bare
                .args
                .as_ref()
                .and_then(|a| usize::try_from(i).ok().and_then(|i| a.get(i)))
                .is_some_and(|a| a.poison)
        };
        match &n.op {
            Op::Arg(i, _) => {
                if poison(*i) {
                    return Ok(None);
                }
                match self.ctx.args.get(i) {
                    Some(l) => Ok(Some(l.clone())),
                    None => nl(at, format!("the context gives no arg {i}")),
                }
            }
            Op::Referrer(_) => match (&self.ctx.referrer, self.bare.expr.dialect) {
                (Some(l), _) => Ok(Some(l.clone())),
                (None, Dialect::DiExpression) => {
                    if poison(0) {
                        return Ok(None);
                    }
                    match self.ctx.args.get(&0) {
                        Some(l) => Ok(Some(l.clone())),
                        None => nl(at, "the context gives neither a referrer nor arg 0"),
                    }
                }
                (None, Dialect::DiExpr) => nl(at, "the context gives no referrer"),
            },
            Op::TypeObject(_) => match &self.ctx.object {
                Some(l) => Ok(Some(l.clone())),
                None => nl(at, "the context gives no object"),
            },
            Op::Constant(t, v) => literal_location(t, v, &self.ctx.datalayout, self.types)
                .map(Some)
                .or_else(|m| nl(at, format!("not well-formed: {m}"))),
            _ => nl(at, "not an input"),
        }
    }
}
