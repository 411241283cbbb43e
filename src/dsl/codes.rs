//! The registry of diagnostic codes: every error and warning a rule file can get, with its
//! severity, a one-line title and an explanation with a small wrong and right example
//! (`meeplab explain CODE` prints an entry). Diagnostics are built from these entries, never
//! from a code written as a string, so a code cannot be used without being explained here.
//!
//! Each `wrong` example is a whole rule file that gets the code when it is checked, and each
//! `right` example the same file mended; `tests/it/dsl_explain.rs` checks both. The few codes a
//! short text cannot show (bytes that are not UTF-8, files too large or nested too deeply,
//! cycles across files) say so in their example, and that test builds the input.

use super::diagnostic::Severity;
use std::fmt;

/// One diagnostic code and what it means.
#[derive(Debug, PartialEq, Eq)]
pub struct Code {
    /// `E0xxx` (an error) or `W0xxx` (a warning).
    pub id: &'static str,
    pub severity: Severity,
    /// What went wrong, in a few words.
    pub title: &'static str,
    /// Why it is a problem and how to mend it.
    pub explanation: &'static str,
    /// A rule file that gets this code.
    pub wrong: &'static str,
    /// The same file mended.
    pub right: &'static str,
}

impl Code {
    /// The entry for `id` (`E0201`, case-insensitive), if there is one.
    pub fn lookup(id: &str) -> Option<&'static Code> {
        ALL.iter().copied().find(|c| c.id.eq_ignore_ascii_case(id))
    }

    /// The closing line of every rendered diagnostic.
    pub fn explain_hint(id: &str) -> String {
        format!(
            "for more information about this {}, run `meeplab explain {id}`",
            {
                if id.starts_with('W') {
                    "warning"
                } else {
                    "error"
                }
            }
        )
    }
}

impl fmt::Display for Code {
    /// The entry as `meeplab explain` prints it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let severity = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        writeln!(f, "{} ({severity}): {}", self.id, self.title)?;
        writeln!(f)?;
        for line in wrap(self.explanation, EXPLAIN_WIDTH) {
            writeln!(f, "{line}")?;
        }
        for (label, text) in [("Wrong:", self.wrong), ("Right:", self.right)] {
            writeln!(f)?;
            writeln!(f, "{label}")?;
            writeln!(f)?;
            for line in text.trim_end().lines() {
                if line.is_empty() {
                    writeln!(f)?;
                } else {
                    writeln!(f, "    {line}")?;
                }
            }
        }
        Ok(())
    }
}

/// The column explanations are wrapped at.
const EXPLAIN_WIDTH: usize = 80;

/// `text`'s words as lines of at most `width` characters (a longer word gets a line of its
/// own).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// Defines one `pub const NAME: Code` per entry and [`ALL`], the list of them in order.
macro_rules! codes {
    ($( $(#[$doc:meta])* $name:ident = $id:literal, $severity:ident, $title:literal,
        explanation: $explanation:expr, wrong: $wrong:expr, right: $right:expr; )*) => {
        $(
            $(#[$doc])*
            pub const $name: Code = Code {
                id: $id,
                severity: Severity::$severity,
                title: $title,
                explanation: $explanation,
                wrong: $wrong,
                right: $right,
            };
        )*
        /// Every code, in code order.
        pub const ALL: &[&Code] = &[$(&$name),*];
    };
}

codes! {
    // ---- syntax (E01xx) ----
    UNEXPECTED_TOKEN = "E0101", Error, "unexpected token",
    explanation: "The parser met something it did not expect here: a stray character, a \
        misspelt tile property, or an identifier that is not plain ASCII. Identifiers are \
        letters A-Z and a-z, digits, `_`, `-`, `/` and `.`; each statement is `key = value`, \
        a block, or a keyword item (`ruleset`, `extends`, `include`, `tile`, `tileset`, \
        `deck`, `start`). Parsing resumes at the next item, so one mistake gives one error.",
    wrong: "ruleset \"Seven followers\"\nextends \"base.rules\"\nfollowers = 7 ?\n",
    right: "ruleset \"Seven followers\"\nextends \"base.rules\"\nfollowers = 7\n";

    UNTERMINATED_STRING = "E0102", Error, "unterminated string",
    explanation: "A string opened with `\"` is not closed on the same line. Strings do not \
        span lines; close it with `\"` before the end of the line.",
    wrong: "ruleset \"Seven followers\nextends \"base.rules\"\n",
    right: "ruleset \"Seven followers\"\nextends \"base.rules\"\n";

    UNTERMINATED_BLOCK = "E0103", Error, "unterminated block",
    explanation: "A block opened with `{` (an option block, a tile, a tile set, a deck) is \
        not closed before the end of the file or before the next item starts. Close it with \
        `}`.",
    wrong: "ruleset \"Robbers\"\nextends \"robbers-2012.rules\"\nrobbers {\n  active_may_move = true\n",
    right: "ruleset \"Robbers\"\nextends \"robbers-2012.rules\"\nrobbers {\n  active_may_move = true\n}\n";

    BAD_ESCAPE = "E0104", Error, "invalid escape in a string",
    explanation: "A backslash in a string starts an escape, and only `\\\\`, `\\\"`, `\\n`, \
        `\\t`, `\\r`, `\\0` and `\\u{hex}` are escapes. Write `\\\\` for a backslash.",
    wrong: "ruleset \"Gold \\q rules\"\nextends \"base.rules\"\n",
    right: "ruleset \"Gold \\\\ rules\"\nextends \"base.rules\"\n";

    NUMBER_OUT_OF_RANGE = "E0105", Error, "number out of range",
    explanation: "A number is too large to read: option values must fit in 64 bits, and \
        numbers inside scoring formulas must lie within -1000000000..=1000000000 so that a \
        formula cannot overflow on an ordinary game.",
    wrong: "ruleset \"Big roads\"\nextends \"base.rules\"\nscore.road.complete = tiles * 1000000001\n",
    right: "ruleset \"Big roads\"\nextends \"base.rules\"\nscore.road.complete = tiles * 1000\n";

    NOT_UTF8 = "E0106", Error, "file is not valid UTF-8",
    explanation: "Rule files are UTF-8 text. The file holds a byte that is not UTF-8, \
        typically an accented letter saved as Latin-1 (`é` as the single byte 0xE9). Save \
        the file as UTF-8. (The example below shows the byte as `\\xE9`.)",
    wrong: "ruleset \"Caf\\xE9 rules\"   # the name saved as Latin-1\nextends \"base.rules\"\n",
    right: "ruleset \"Café rules\"\nextends \"base.rules\"\n";

    BINARY_FILE = "E0107", Error, "binary file",
    explanation: "The file contains a NUL byte, so it is not a rule file: most likely a \
        wrong path (an image, an archive, a `.jcz` save given to `check`). Rule files are \
        text. (The example below shows the NUL byte as `\\0`.)",
    wrong: "ruleset \"Base\"\\0\nextends \"base.rules\"\n",
    right: "ruleset \"Base\"\nextends \"base.rules\"\n";

    FILE_TOO_LARGE = "E0108", Error, "file too large",
    explanation: "A rule file may hold at most 1 MiB (1048576 bytes). No real ruleset comes \
        near that; split tile catalogues into several files with `include` if one grows.",
    wrong: "ruleset \"Huge\"\nextends \"base.rules\"\n# ... followed by more than a megabyte of text\n",
    right: "ruleset \"Huge\"\nextends \"base.rules\"\ninclude \"tiles/my-tiles.tiles\"   # the tiles moved to their own file\n";

    NESTED_TOO_DEEPLY = "E0110", Error, "value nested too deeply",
    explanation: "Values, parentheses and blocks may nest at most 64 levels deep. Flatten \
        the expression: a formula rarely needs more than a few parentheses.",
    wrong: "ruleset \"Deep\"\nextends \"base.rules\"\nscore.road.complete = ((((((... 65 levels ...(tiles)...))))))\n",
    right: "ruleset \"Deep\"\nextends \"base.rules\"\nscore.road.complete = (tiles)\n";

    TOO_MANY_ERRORS = "E0111", Error, "too many errors",
    explanation: "Checking stops after 50 syntax errors in one file, and a load reports at \
        most 200 diagnostics; this entry counts the rest. Mend the first errors and check \
        again: later ones are often caused by earlier ones.",
    wrong: "ruleset \"Noise\"\nextends \"base.rules\"\n?\n?\n?\n# ... and so on, hundreds of lines\n",
    right: "ruleset \"Noise\"\nextends \"base.rules\"\n";

    EXPRESSION_TOO_LONG = "E0112", Error, "expression too long",
    explanation: "A scoring formula may have at most 256 operands. Formulas are meant to be \
        short; a table (`table(x) { 1..3: 1, 4..: 2 }`) or `min`/`max` usually says the \
        same thing in a few terms.",
    wrong: "ruleset \"Long\"\nextends \"base.rules\"\nscore.road.complete = tiles + 1 + 1 + ... (256 more operands)\n",
    right: "ruleset \"Long\"\nextends \"base.rules\"\nscore.road.complete = tiles + 256\n";

    // ---- options (E02xx) ----
    UNKNOWN_OPTION = "E0201", Error, "unknown option",
    explanation: "The key is not an option meeplab knows. The help line lists the valid keys \
        closest to what was written; `meeplab check --list-options` documents them all.",
    wrong: "ruleset \"Gold\"\nextends \"goldmines-hig-2012.rules\"\ngold { splt = one_per_feature(leftover: stays) }\n",
    right: "ruleset \"Gold\"\nextends \"goldmines-hig-2012.rules\"\ngold { split = one_per_feature(leftover: stays) }\n";

    TYPE_MISMATCH = "E0202", Error, "value of the wrong type",
    explanation: "The value is of another type than the option takes: a string where a \
        number is expected, a number for a yes/no option, an open range where a bound is \
        needed. `meeplab check --list-options` gives each option's type.",
    wrong: "ruleset \"Seven followers\"\nextends \"base.rules\"\nfollowers = \"seven\"\n",
    right: "ruleset \"Seven followers\"\nextends \"base.rules\"\nfollowers = 7\n";

    UNKNOWN_CHOICE = "E0203", Error, "not a value of this option",
    explanation: "The option takes one of a fixed set of values (or a choice's argument \
        does), and this is not one of them. The help line lists the valid values.",
    wrong: "ruleset \"Discard\"\nextends \"base.rules\"\nunplaceable = discrad\n",
    right: "ruleset \"Discard\"\nextends \"base.rules\"\nunplaceable = discard\n";

    OUT_OF_RANGE = "E0204", Error, "value out of range",
    explanation: "The number or range is of the right type but outside what the option \
        allows (a player count of 2..9 where at most 6 play, no followers, a range whose \
        bounds are reversed, a tile with more than 9 pennants). The help line gives the \
        range.",
    wrong: "ruleset \"No followers\"\nextends \"base.rules\"\nfollowers = 0\n",
    right: "ruleset \"One follower\"\nextends \"base.rules\"\nfollowers = 1\n";

    SET_TWICE = "E0205", Error, "option set twice in one file",
    explanation: "One file sets the same option twice, so it is unclear which value is \
        meant. A file may override what it `extends`, but set each option only once itself.",
    wrong: "ruleset \"Eight\"\nextends \"base.rules\"\nfollowers = 6\nfollowers = 8\n",
    right: "ruleset \"Eight\"\nextends \"base.rules\"\nfollowers = 8\n";

    UNKNOWN_VARIABLE = "E0206", Error, "unknown variable in a formula",
    explanation: "A formula names a quantity the option does not have: each scoring formula \
        sees its own (`tiles` and `pennants` for a city, `tiles` for a road, `cities` for a \
        field, an expansion's own for its formulas). `meeplab check --list-options` lists \
        them per option.",
    wrong: "ruleset \"Pennant roads\"\nextends \"base.rules\"\nscore.road.complete = 2 * pennants\n",
    right: "ruleset \"Double roads\"\nextends \"base.rules\"\nscore.road.complete = 2 * tiles\n";

    BAD_TABLE = "E0207", Error, "invalid step table",
    explanation: "A step table (`table(x) { lo..hi: value, ... }`) needs at least one row, \
        rows sorted by their low bound that do not overlap, no empty row, and only the last \
        row open (`10..`).",
    wrong: "ruleset \"Gold table\"\nextends \"goldmines-hig-2012.rules\"\ngold.value = table(ingots) { 1..5: 1, 3..6: 2 }\n",
    right: "ruleset \"Gold table\"\nextends \"goldmines-hig-2012.rules\"\ngold.value = table(ingots) { 1..2: 1, 3..6: 2 }\n";

    BAD_CALL = "E0208", Error, "invalid call",
    explanation: "A function or a choice is called wrongly: an unknown function (formulas \
        know `ceil`, `min`, `max` and `table`), the wrong number of arguments, `ceil` of \
        something that is not a division, an unnamed or unknown argument of a choice, or an \
        argument given twice.",
    wrong: "ruleset \"Robbers\"\nextends \"robbers-2012.rules\"\nrobbers.share = floor(points / 2)\n",
    right: "ruleset \"Robbers\"\nextends \"robbers-2012.rules\"\nrobbers.share = points / 2\n";

    // ---- files (E03xx) ----
    CANNOT_READ = "E0301", Error, "cannot read a file",
    explanation: "A file named on the command line or by `extends`/`include` cannot be read: \
        it does not exist (on disk or among the bundled files), is a folder, or the system \
        refused it. Paths are relative to the file that names them.",
    wrong: "ruleset \"Mine\"\nextends \"base.rules\"\ninclude \"tiles/no-such-file.tiles\"\n",
    right: "ruleset \"Mine\"\nextends \"base.rules\"\ninclude \"tiles/goldmines-c1.tiles\"\n";

    INCLUDE_CYCLE = "E0302", Error, "extends or include cycle",
    explanation: "Files `extends` or `include` each other in a circle (or more than 32 files \
        deep), so loading would never end. The help line shows the chain; break it.",
    wrong: "# a.rules\nruleset \"a\"\nextends \"b.rules\"\n\n# b.rules\nruleset \"b\"\nextends \"a.rules\"\n",
    right: "# a.rules\nruleset \"a\"\nextends \"b.rules\"\n\n# b.rules\nruleset \"b\"\nextends \"base.rules\"\n";

    MISPLACED_ITEM = "E0303", Error, "`ruleset` or `extends` where it is not allowed",
    explanation: "A ruleset is named once and extends at most one other ruleset; an included \
        file only adds tiles, tile sets and options, so it may not name a ruleset nor \
        `extends` one. Use `include` to pull in more tiles or options.",
    wrong: "ruleset \"Both\"\nextends \"base.rules\"\nextends \"castles.rules\"\n",
    right: "ruleset \"Both\"\nextends \"castles.rules\"\n";

    NO_FILE_ACCESS = "E0304", Error, "file access not allowed",
    explanation: "The text was loaded without file access (an isolated load, as the fuzz \
        targets and some tests do), so it may not `extends` or `include` anything. Write the \
        ruleset self-contained, or load it from a file.",
    wrong: "ruleset \"Isolated\"\ninclude \"tiles/base.tiles\"   # loaded without file access\n",
    right: "ruleset \"Isolated\"\ntile A { edges FFFF field NL NR EL ER SL SR WL WR }\ntileset s { A x2 }\ndeck { s x1 }\nstart A\n";

    // ---- tiles (E04xx) ----
    DUPLICATE_TILE = "E0401", Error, "duplicate tile id",
    explanation: "Two tiles have the same id (in one file, or across the files a ruleset \
        loads). A note says where the first one was defined; rename one of them.",
    wrong: "ruleset \"Tiles\"\nextends \"base.rules\"\ntile MY/A { edges FFFF field NL NR EL ER SL SR WL WR }\ntile MY/A { edges FFFF field NL NR EL ER SL SR WL WR }\n",
    right: "ruleset \"Tiles\"\nextends \"base.rules\"\ntile MY/A { edges FFFF field NL NR EL ER SL SR WL WR }\ntile MY/B { edges FFFF field NL NR EL ER SL SR WL WR }\n";

    EDGE_WITHOUT_FEATURE = "E0402", Error, "edge without a feature",
    explanation: "Every edge of a tile belongs to a feature: each city or road side to a \
        `city` or `road`, each field half-edge (NL NR EL ER SL SR WL WR) to a `field`. This \
        tile leaves one out.",
    wrong: "ruleset \"Tiles\"\nextends \"base.rules\"\ntile MY/A { edges CFFF field EL ER SL SR WL WR }\n",
    right: "ruleset \"Tiles\"\nextends \"base.rules\"\ntile MY/A { edges CFFF city N field EL ER SL SR WL WR }\n";

    EDGE_CLAIMED_TWICE = "E0403", Error, "edge claimed twice",
    explanation: "A side or half-edge belongs to two features of the tile (or is listed twice \
        in one). Each edge belongs to exactly one feature.",
    wrong: "ruleset \"Tiles\"\nextends \"base.rules\"\ntile MY/A { edges CFFF city N city N field EL ER SL SR WL WR }\n",
    right: "ruleset \"Tiles\"\nextends \"base.rules\"\ntile MY/A { edges CFFF city N field EL ER SL SR WL WR }\n";

    WRONG_EDGE_KIND = "E0404", Error, "feature on the wrong kind of edge",
    explanation: "A feature reaches a side whose edge letter says otherwise: a road on a \
        field (`F`) edge, a field half-edge on a city (`C`) side. Make the `edges` letters \
        and the features agree.",
    wrong: "ruleset \"Tiles\"\nextends \"base.rules\"\ntile MY/A { edges FFFF road N field NL NR EL ER SL SR WL WR }\n",
    right: "ruleset \"Tiles\"\nextends \"base.rules\"\ntile MY/A { edges RFFF road N field NL NR EL ER SL SR WL WR }\n";

    ROAD_MUST_SPLIT_FIELDS = "E0405", Error, "a road must separate fields",
    explanation: "A road running through a tile cuts the fields on either side of it, so a \
        field may not join half-edges that lie on both sides of the road.",
    wrong: "ruleset \"Tiles\"\nextends \"base.rules\"\ntile MY/A { edges FRFR road W E field WR NL NR EL ER field SL SR WL }\n",
    right: "ruleset \"Tiles\"\nextends \"base.rules\"\ntile MY/A { edges FRFR road W E field WR NL NR EL field ER SL SR WL }\n";

    FIELD_CITY_LINK = "E0406", Error, "field names a city the tile does not have",
    explanation: "`field ... -> S` says the field touches the tile's city on side S (for \
        farm scoring). The side must be one that a city of the same tile reaches.",
    wrong: "ruleset \"Tiles\"\nextends \"base.rules\"\ntile MY/A { edges CFFF city N field EL ER SL SR WL WR -> S }\n",
    right: "ruleset \"Tiles\"\nextends \"base.rules\"\ntile MY/A { edges CFFF city N field EL ER SL SR WL WR -> N }\n";

    BAD_EDGES = "E0407", Error, "invalid edges",
    explanation: "`edges` takes four letters for the sides N, E, S, W, each `C` (city), `R` \
        (road), `F` (field) or `W` (river: it matches only a river edge), e.g. `CRFR`.",
    wrong: "ruleset \"Tiles\"\nextends \"base.rules\"\ntile MY/A { edges FFXF field NL NR EL ER SL SR WL WR }\n",
    right: "ruleset \"Tiles\"\nextends \"base.rules\"\ntile MY/A { edges FFFF field NL NR EL ER SL SR WL WR }\n";

    MISSING_EDGES = "E0408", Error, "tile without edges",
    explanation: "Every tile says its four edges with `edges`; without them the tile cannot \
        be matched against its neighbours.",
    wrong: "ruleset \"Tiles\"\nextends \"base.rules\"\ntile MY/A { field NL NR EL ER SL SR WL WR }\n",
    right: "ruleset \"Tiles\"\nextends \"base.rules\"\ntile MY/A { edges FFFF field NL NR EL ER SL SR WL WR }\n";

    PROPERTY_TWICE = "E0409", Error, "tile property given twice",
    explanation: "A tile gives one of its properties (`edges`, `jcz`, `pennants`, …) twice, \
        or has more features than a tile can hold. Give each property once.",
    wrong: "ruleset \"Tiles\"\nextends \"base.rules\"\ntile MY/A { edges FFFF edges FFFF field NL NR EL ER SL SR WL WR }\n",
    right: "ruleset \"Tiles\"\nextends \"base.rules\"\ntile MY/A { edges FFFF field NL NR EL ER SL SR WL WR }\n";

    SEGMENT_MARK_KIND = "E0410", Error, "segment mark on the wrong kind of segment",
    explanation: "An expansion's segment mark belongs to one kind of segment: an `inn` to a \
        road, a `cathedral` to a city (Inns & Cathedrals). Write it after the sides of a \
        segment of that kind (`road W E inn`).",
    wrong: "ruleset \"Tiles\"\nextends \"inns-c2.rules\"\ntile MY/A { edges CFFF city N inn field EL ER SL SR WL WR -> N }\n",
    right: "ruleset \"Tiles\"\nextends \"inns-c2.rules\"\ntile MY/A { edges CFFF city N cathedral field EL ER SL SR WL WR -> N }\n";
    RIVER_MUST_SPLIT_FIELDS = "E0411", Error, "a river must separate fields",
    explanation: "A river (`W` edges) running through a tile, from one side to another, cuts \
        the fields on either side of it, so a field may not join the two half-edges of a \
        river side. A spring or a lake (a single `W` side) ends the river on the tile: the \
        field wraps around it.",
    wrong: "ruleset \"Tiles\"\nextends \"base.rules\"\ntile MY/A { edges FWFW field WR NL NR EL ER SL SR WL }\n",
    right: "ruleset \"Tiles\"\nextends \"base.rules\"\ntile MY/A { edges FWFW field WR NL NR EL field ER SL SR WL }\n";

    // ---- deck (E05xx) ----
    UNKNOWN_TILE = "E0501", Error, "unknown tile",
    explanation: "A tile set, a deck's `only [...]` list or `start` names a tile id that no \
        loaded file defines (or that is not in the named tile set). The help line suggests \
        the closest ids.",
    wrong: "ruleset \"Start\"\nextends \"base.rules\"\nstart BA/RCR\n",
    right: "ruleset \"Start\"\nextends \"base.rules\"\nstart BA/RCr\n";

    UNKNOWN_TILE_SET = "E0502", Error, "unknown tile set",
    explanation: "The deck names a tile set that no loaded file defines. Include the tile \
        file that defines it (`include \"tiles/goldmines-c1.tiles\"`) or fix the name.",
    wrong: "ruleset \"Double base\"\nextends \"base.rules\"\ndeck { basic x2 }\n",
    right: "ruleset \"Double base\"\nextends \"base.rules\"\ndeck { base x2 }\n";

    COUNT_NOT_POSITIVE = "E0503", Error, "count must be positive",
    explanation: "A tile count in a tile set, or a multiplier in the deck, is zero or \
        negative. Leave the tile or set out instead.",
    wrong: "ruleset \"No base\"\nextends \"base.rules\"\ndeck { base x0 }\n",
    right: "ruleset \"One base\"\nextends \"base.rules\"\ndeck { base x1 }\n";

    START_NOT_IN_DECK = "E0504", Error, "start tile not in the deck",
    explanation: "The start tile is one copy of a deck tile, so the deck must hold it. Add \
        its tile set to the deck, or start with a tile the deck has.",
    wrong: "ruleset \"Gold start\"\nextends \"base.rules\"\ninclude \"tiles/goldmines-c1.tiles\"\nstart GO/CRcr\n",
    right: "ruleset \"Gold start\"\nextends \"base.rules\"\ninclude \"tiles/goldmines-c1.tiles\"\ndeck += { goldmines-c1 x1 }\nstart GO/CRcr\n";

    EMPTY_DECK = "E0505", Error, "empty deck or no start tile",
    explanation: "A ruleset needs a deck with tiles and a start tile. The simplest way to \
        have both is to extend a bundled ruleset.",
    wrong: "ruleset \"Nothing\"\n",
    right: "ruleset \"Something\"\nextends \"base.rules\"\n";

    DUPLICATE_TILE_SET = "E0506", Error, "duplicate tile set",
    explanation: "Two tile sets have the same name. A note says where the first was defined; \
        rename one of them.",
    wrong: "ruleset \"Sets\"\nextends \"base.rules\"\ntileset mine { BA/RCr x1 }\ntileset mine { BA/RCr x2 }\n",
    right: "ruleset \"Sets\"\nextends \"base.rules\"\ntileset mine { BA/RCr x1 }\ntileset mine2 { BA/RCr x2 }\n";

    TOO_MANY_COPIES = "E0507", Error, "too many copies of a tile",
    explanation: "The deck would hold more than 65535 copies of one tile.",
    wrong: "ruleset \"Copies\"\nextends \"base.rules\"\ntileset start { BA/RCr x40000 }\ndeck += { start x2 }\n",
    right: "ruleset \"Copies\"\nextends \"base.rules\"\ntileset start { BA/RCr x4 }\ndeck += { start x2 }\n";

    TILE_TWICE_IN_SET = "E0508", Error, "tile listed twice in a tile set",
    explanation: "A tile set lists the same tile twice. List it once with the total count.",
    wrong: "ruleset \"Sets\"\nextends \"base.rules\"\ntileset mine { BA/RCr x2, BA/RCr x1 }\n",
    right: "ruleset \"Sets\"\nextends \"base.rules\"\ntileset mine { BA/RCr x3 }\n";

    DECK_TOO_LARGE = "E0509", Error, "deck too large",
    explanation: "A deck may hold at most 1000 tiles, the start tile included; the error \
        points at the deck item that goes over.",
    wrong: "ruleset \"Huge\"\nextends \"base.rules\"\ndeck { base x400 }\n",
    right: "ruleset \"Large\"\nextends \"base.rules\"\ndeck { base x10 }\n";

    // ---- ruleset (E06xx) ----
    MISSING_NAME = "E0602", Error, "missing ruleset name",
    explanation: "The top file of a ruleset names it with `ruleset \"...\"`; reports, records \
        and `meeplab diff` show that name.",
    wrong: "extends \"base.rules\"\nfollowers = 8\n",
    right: "ruleset \"Eight followers\"\nextends \"base.rules\"\nfollowers = 8\n";

    EXPANSIONS_CONFLICT = "E0603", Error, "rules that cannot be played together",
    explanation: "An expansion in play cannot play the ruleset as written, or its rules forbid \
        or leave undefined the combination: the river's tiles with a start tile that is no \
        river tile (every river tile would be discarded: the river starts at its spring), or \
        more tiles that end the river (lakes, a second spring) than the spring and the forks \
        open ends for. The message names the expansion and the conflict.",
    wrong: "ruleset \"River from the crossroads\"\nextends \"river.rules\"\nstart BA/RCr\n",
    right: "ruleset \"River from its spring\"\nextends \"river.rules\"\nstart RI/s\n";

    INTERNAL = "E0999", Error, "internal error",
    explanation: "The ruleset passed every check but could not be assembled. This is a bug \
        in meeplab, not in the rule file: please report it with the file attached. No known \
        rule file gets this code.",
    wrong: "# no known rule file gets E0999\n",
    right: "ruleset \"Any valid ruleset\"\nextends \"base.rules\"\n";

    // ---- warnings (W01xx: options without effect, W02xx: formulas) ----
    EXPANSION_NOT_IN_DECK = "W0101", Warning, "expansion option without its tiles",
    explanation: "An option of an expansion that its tiles bring into play is set, but the \
        deck has none of that expansion's tiles, so the option changes nothing. Add the \
        tiles to the deck, or remove the option.",
    wrong: "ruleset \"Gold\"\nextends \"base.rules\"\ngold.ingots = 3\n",
    right: "ruleset \"Gold\"\nextends \"goldmines-hig-2012.rules\"\ngold.ingots = 3\n";

    HAND_EMPTIES_PACK = "W0102", Warning, "the deal empties the pack",
    explanation: "With a hand of tiles, every player is dealt hand − 1 tiles before the \
        first turn. When that deal takes the whole pack, nobody draws: the players only play \
        their dealt hands down. Use a smaller hand or a larger deck.",
    wrong: "ruleset \"Hand\"\ntile A { edges FFFF field NL NR EL ER SL SR WL WR }\ntileset s { A x2 }\ndeck { s x1 }\nstart A\nhand = 4\n",
    right: "ruleset \"Hand\"\ntile A { edges FFFF field NL NR EL ER SL SR WL WR }\ntileset s { A x40 }\ndeck { s x1 }\nstart A\nhand = 4\n";

    AREA_NOT_IN_PLAY = "W0103", Warning, "option needs a part of the game not in play",
    explanation: "The option only acts together with another part of the game (another \
        expansion's pieces), which this ruleset does not play, so it changes nothing.",
    wrong: "ruleset \"Castles\"\nextends \"castles.rules\"\ncastles.gold = vicinity\n",
    right: "ruleset \"Castles\"\nextends \"goldmines-castles.rules\"\ncastles.gold = vicinity\n";

    DIVISION_BY_ZERO = "W0201", Warning, "formula can divide by zero",
    explanation: "A division's divisor is, or can be, zero for some game, and a division by \
        zero gives 0 points. Write the divisor you meant, or keep it away from zero \
        (`max(1, ...)`).",
    wrong: "ruleset \"Roads\"\nextends \"base.rules\"\nscore.road.complete = tiles / 0\n",
    right: "ruleset \"Roads\"\nextends \"base.rules\"\nscore.road.complete = tiles / 2\n";

    FORMULA_OVERFLOW = "W0202", Warning, "formula can leave the 64-bit range",
    explanation: "Part of the formula can grow beyond the 64-bit integer range for some game, \
        where scores saturate instead of growing. Use smaller factors.",
    wrong: "ruleset \"Roads\"\nextends \"base.rules\"\nscore.road.complete = 1000000000 * 1000000000 * tiles\n",
    right: "ruleset \"Roads\"\nextends \"base.rules\"\nscore.road.complete = 1000 * tiles\n";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_sorted_and_named_by_severity() {
        for pair in ALL.windows(2) {
            assert!(
                pair[0].id < pair[1].id,
                "{} before {}",
                pair[0].id,
                pair[1].id
            );
        }
        for c in ALL {
            let letter = match c.severity {
                Severity::Error => 'E',
                Severity::Warning => 'W',
            };
            assert!(c.id.starts_with(letter) && c.id.len() == 5, "{}", c.id);
            assert!(!c.title.is_empty() && !c.explanation.is_empty(), "{}", c.id);
        }
    }

    #[test]
    fn explanations_wrap_at_80_columns() {
        for code in ALL {
            let text = code.to_string();
            let explanation = text.split("Wrong:").next().unwrap_or_default();
            assert!(
                explanation.lines().all(|l| l.chars().count() <= 80),
                "{text}"
            );
        }
        assert_eq!(wrap("a bb ccc", 4), vec!["a bb", "ccc"]);
    }

    #[test]
    fn lookup_ignores_case() {
        assert_eq!(Code::lookup("e0201"), Some(&UNKNOWN_OPTION));
        assert_eq!(Code::lookup("E9999"), None);
    }
}
