//! The rule language: lexer/parser (nom, spans kept), AST, resolution of `extends`/`include`, validation and diagnostics.
