//! Foreign game records: JCloisterZone `.jcz` saves.
