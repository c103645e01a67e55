//! Source files and the map of all files in one compilation (one name per file in diagnostics).

/// Index of a file in a [`SourceMap`].
pub type FileId = u32;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceFile {
    /// The name shown in diagnostics (the path as given, or `<stdin>`).
    pub name: String,
    pub text: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceMap {
    pub files: Vec<SourceFile>,
}

impl SourceMap {
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> FileId {
        self.files.push(SourceFile {
            name: name.into(),
            text: text.into(),
        });
        (self.files.len() - 1) as FileId
    }
    pub fn get(&self, id: FileId) -> &SourceFile {
        &self.files[id as usize]
    }
}
