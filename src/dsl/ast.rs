//! The syntax tree of one rule-language file, exactly as written: every node keeps its byte
//! span so later passes (resolution, validation) can point diagnostics at it. No meaning is
//! attached here — option keys are plain text until `dsl::registry` types them.

/// A byte range in one file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Sp {
    pub start: usize,
    pub end: usize,
}

impl Sp {
    pub fn new(start: usize, end: usize) -> Sp {
        Sp { start, end }
    }
    pub fn to(self, other: Sp) -> Sp {
        Sp::new(self.start.min(other.start), self.end.max(other.end))
    }
}

/// A piece of text with its span (strings, names, identifiers).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Text {
    pub text: String,
    pub span: Sp,
}

/// One parsed file: its top-level items in order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct File {
    pub items: Vec<Item>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// `ruleset "name"`
    Ruleset { name: Text, span: Sp },
    /// `extends "path"`
    Extends { path: Text, span: Sp },
    /// `include "path"`
    Include { path: Text, span: Sp },
    /// `tile ID { … }`
    Tile(TileDef),
    /// `tileset NAME { ID xN … }`
    Tileset(TilesetDef),
    /// `deck { SET xN … }` (replaces) or `deck += { … }` (appends)
    Deck {
        append: bool,
        entries: Vec<DeckItem>,
        span: Sp,
    },
    /// `start ID`
    Start { id: Text, span: Sp },
    /// `key = value [source "…"]`, with block prefixes already applied to `key`.
    Option(OptionStmt),
}

#[derive(Clone, Debug, PartialEq)]
pub struct TileDef {
    pub id: Text,
    pub props: Vec<TileProp>,
    pub span: Sp,
}

/// A side name with its span.
pub type SideRef = (crate::tiles::Side, Sp);

#[derive(Clone, Debug, PartialEq)]
pub enum TileProp {
    Jcz(Text),
    /// `edges CRFR`
    Edges(Text),
    /// `city N W [pennant | pennants K] [MARK…]`
    City {
        sides: Vec<SideRef>,
        pennants: (i64, Sp),
        /// The expansions' segment marks written after it (`cathedral`).
        marks: Vec<Text>,
        span: Sp,
    },
    /// `road W E [MARK…]`
    Road {
        sides: Vec<SideRef>,
        /// The expansions' segment marks written after it (`inn`).
        marks: Vec<Text>,
        span: Sp,
    },
    /// `field EL WR [-> N S]`: half-edges, and sides naming the cities it touches.
    Field {
        halves: Vec<(crate::tiles::HalfEdge, Sp)>,
        cities: Vec<SideRef>,
        marks: Vec<Text>,
        span: Sp,
    },
    Cloister(Sp),
    /// `decor cows, water_tower`
    Decor(Vec<Text>, Sp),
    /// An expansion's tile mark, by its name (`bazaar`): see `Expansion::TILE_MARKS`.
    Mark(Text),
}

#[derive(Clone, Debug, PartialEq)]
pub struct TilesetDef {
    pub name: Text,
    pub entries: Vec<TilesetEntry>,
    pub span: Sp,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TilesetEntry {
    pub id: Text,
    pub count: (i64, Sp),
}

#[derive(Clone, Debug, PartialEq)]
pub struct DeckItem {
    pub set: Text,
    pub mult: (i64, Sp),
    /// `only [ID, …]`: just these tiles of the set (with the set's counts).
    pub only: Option<Vec<Text>>,
    pub span: Sp,
}

#[derive(Clone, Debug, PartialEq)]
pub struct OptionStmt {
    /// Full dotted key (`gold.split`), block prefixes applied.
    pub key: String,
    /// Span of the key as written (without the block prefix).
    pub key_span: Sp,
    pub value: Value,
    /// `source "…"` on the statement or inherited from an enclosing block.
    pub source: Option<Text>,
    pub span: Sp,
}

/// A value as written; its type is decided by the option it is assigned to.
#[derive(Clone, Debug, PartialEq)]
pub struct Value {
    pub kind: ValueKind,
    pub span: Sp,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum ValueKind {
    Int(i64),
    Str(String),
    Ident(String),
    /// `2..5`, `10..`
    Range(i64, Option<i64>),
    /// `name(args)`; `table(x) { rows }` carries rows.
    Call {
        name: Text,
        args: Vec<Arg>,
        rows: Option<Vec<TableRow>>,
    },
    Bin(BinOp, Box<Value>, Box<Value>),
    Neg(Box<Value>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Arg {
    pub name: Option<Text>,
    pub value: Value,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TableRow {
    pub lo: i64,
    pub hi: Option<i64>,
    pub value: i64,
    pub span: Sp,
}
