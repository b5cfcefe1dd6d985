//! The pictures of the editor's media library in `sitegen dev`: Decap's media actions of the
//! proxy protocol (`getMedia`, `getMediaFile`, `persistMedia`, `deleteFile(s)`, and the
//! pictures a `persistEntry` carries), answered from `content/images/`.
//!
//! An upload is checked before anything is written, because a file in `content/images/` goes
//! through the images stage of every build: it must be a picture that stage reads (one of
//! [`RASTER_EXTENSIONS`], its bytes of that format, its header readable), no larger than
//! [`MAX_UPLOAD_BYTES`], named by a slug (lowercase words joined by `-`, so no path can leave
//! the folder and every URL is the same on every file system), and it must not replace a
//! different picture of the same name. A picture the content names is not deleted.

use std::path::{Path, PathBuf};

use anyhow::Context as _;
use base64::Engine as _;
use serde::{Deserialize, Serialize};

use crate::content::images::{RASTER_EXTENSIONS, SOURCE_DIR};

/// The largest picture the editor may upload: a photo straight from a camera fits; the images
/// stage encodes it down to the widths the pages show.
pub const MAX_UPLOAD_BYTES: usize = 10 * 1024 * 1024;

/// The largest request the editor's endpoint reads: an upload of [`MAX_UPLOAD_BYTES`] in
/// base64 (a third larger) with room to spare, so that a picture somewhat too large is read and
/// refused with its size, not cut off by the server.
pub const MAX_REQUEST_BYTES: usize = 2 * MAX_UPLOAD_BYTES;

/// Why a media action was not done.
#[derive(Debug, thiserror::Error)]
pub enum MediaError {
    /// The upload or the deletion is not allowed; the editor shows the message.
    #[error("{0}")]
    Refused(String),
    /// Reading or writing a file failed.
    #[error(transparent)]
    Io(#[from] anyhow::Error),
}

fn refused<T>(message: impl Into<String>) -> Result<T, MediaError> {
    Err(MediaError::Refused(message.into()))
}

/// A file as the editor sends it (`persistMedia`'s `asset`, each of `persistEntry`'s `assets`).
#[derive(Debug, Clone, Deserialize)]
pub struct Asset {
    /// Relative to the repository: `content/images/chart.png`.
    pub path: String,
    /// The bytes, encoded as `encoding` says.
    pub content: String,
    /// Always `base64` from Decap.
    pub encoding: String,
}

/// A file as the editor receives it (decap-server's `readMediaFile`).
#[derive(Debug, Clone, Serialize)]
pub struct MediaFile {
    /// What the editor compares to learn whether the file changed.
    pub id: String,
    /// The bytes in base64.
    pub content: String,
    /// `base64`.
    pub encoding: &'static str,
    /// Relative to the repository.
    pub path: String,
    /// The file name.
    pub name: String,
}

/// A checked upload: where it goes and its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Picture {
    /// The file on disk, under the content directory.
    pub path: PathBuf,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// The media library of the content directory: its pictures in `images/` under it, and the site's `public/` for the SVG illustrations the content
/// also names under `/images/`.
#[derive(Debug, Clone)]
pub struct Media<'a> {
    /// What the editor's paths call the content directory (`content`), wherever it is.
    pub content_path: &'a str,
    /// The content directory on disk.
    pub content_dir: &'a Path,
    /// The site's `public/`.
    pub public_dir: &'a Path,
}

impl Media<'_> {
    /// The editor's path of the media folder: `content/images`.
    fn folder(&self) -> String {
        format!("{}/{SOURCE_DIR}", self.content_path)
    }

    /// The part of the editor's `path` below the media folder, when `path` names a place in it
    /// without leaving it; `""` for the folder itself.
    fn inner<'p>(&self, path: &'p str) -> Result<&'p str, MediaError> {
        let folder = self.folder();
        let inner = match path.trim_end_matches('/').strip_prefix(&folder) {
            Some("") => "",
            Some(rest) => match rest.strip_prefix('/') {
                Some(inner) => inner,
                None => return refused(format!("{path}: not under {folder}/")),
            },
            None => return refused(format!("{path}: not under {folder}/")),
        };
        if inner
            .split('/')
            .any(|part| matches!(part, "." | "..") || part.contains('\\'))
            || inner.starts_with('/')
        {
            return refused(format!("{path}: not a path under {folder}/"));
        }
        Ok(inner)
    }

    /// `getMedia`: the pictures directly in the folder `folder`.
    pub fn list(&self, folder: &str) -> Result<Vec<MediaFile>, MediaError> {
        let inner = self.inner(folder)?;
        let dir = self.content_dir.join(SOURCE_DIR).join(inner);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            return Ok(Vec::new());
        };
        let mut names: Vec<String> = entries
            .filter_map(|e| {
                let e = e.ok()?;
                e.file_type().ok()?.is_file().then_some(())?;
                e.file_name().into_string().ok()
            })
            .filter(|name| is_picture_name(name))
            .collect();
        names.sort();
        names
            .iter()
            .map(|name| {
                let path = format!("{}/{name}", folder.trim_end_matches('/'));
                Ok(media_file(&path, &read(&dir.join(name))?))
            })
            .collect()
    }

    /// `getMediaFile`: the picture at the editor's `path`; an illustration the content names
    /// under `/images/` but keeps in the site's `public/` (an SVG) is read from there.
    pub fn get(&self, path: &str) -> Result<MediaFile, MediaError> {
        let inner = self.inner(path)?;
        let own = self.content_dir.join(SOURCE_DIR).join(inner);
        let file = match own.is_file() {
            true => own,
            false => self.public_dir.join(SOURCE_DIR).join(inner),
        };
        Ok(media_file(path, &read(&file)?))
    }

    /// Checks `asset` as an upload ([the module's rules](self)): where it would be written and
    /// its bytes, or why it is refused.
    pub fn check(&self, asset: &Asset) -> Result<Picture, MediaError> {
        let path = asset.path.as_str();
        let inner = self.inner(path)?;
        let name = inner.rsplit('/').next().unwrap_or(inner);
        let Some((stem, extension)) = name.rsplit_once('.') else {
            return refused(format!(
                "{name}: not a picture; upload a {} file",
                picture_kinds()
            ));
        };
        if !RASTER_EXTENSIONS.contains(&extension.to_ascii_lowercase().as_str()) {
            return refused(format!(
                "{name}: not a picture the site can publish; upload a {} file",
                picture_kinds()
            ));
        }
        let folders = inner[..inner.len() - name.len()].trim_end_matches('/');
        if !crate::content::is_slug(stem)
            || extension != extension.to_ascii_lowercase()
            || folders
                .split('/')
                .any(|f| !f.is_empty() && !crate::content::is_slug(f))
        {
            return refused(format!(
                "{name}: name the picture with lowercase letters, digits and hyphens (`team-photo.jpg`)"
            ));
        }
        if asset.encoding != "base64" {
            return refused(format!(
                "{name}: the encoding `{}` is not base64",
                asset.encoding
            ));
        }
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(asset.content.as_bytes())
            .map_err(|err| MediaError::Refused(format!("{name}: not base64: {err}")))?;
        if bytes.len() > MAX_UPLOAD_BYTES {
            return refused(format!(
                "{name}: {} is larger than the {} a picture may have; make it smaller",
                bytesize::ByteSize(bytes.len() as u64),
                bytesize::ByteSize(MAX_UPLOAD_BYTES as u64)
            ));
        }
        let expected = image::ImageFormat::from_extension(extension);
        let found = image::guess_format(&bytes).ok();
        if found.is_none() || found != expected {
            return refused(format!(
                "{name}: the file is not a {} picture",
                extension.to_ascii_uppercase()
            ));
        }
        let readable = image::ImageReader::new(std::io::Cursor::new(&bytes))
            .with_guessed_format()
            .map_err(anyhow::Error::from)?
            .into_dimensions();
        if let Err(err) = readable {
            return refused(format!("{name}: the picture cannot be read: {err}"));
        }
        let file = self.content_dir.join(SOURCE_DIR).join(inner);
        if let Ok(existing) = std::fs::read(&file)
            && existing != bytes
        {
            return refused(format!(
                "{path} already exists and is another picture; give this one another name"
            ));
        }
        Ok(Picture { path: file, bytes })
    }

    /// `persistMedia`: checks and writes `asset`.
    pub fn persist(&self, asset: &Asset) -> Result<MediaFile, MediaError> {
        let picture = self.check(asset)?;
        write(&picture)?;
        Ok(media_file(&asset.path, &picture.bytes))
    }

    /// `deleteFile(s)`: removes the pictures at the editor's `paths`, unless the content names
    /// one of them (the next build would fail on the missing file).
    pub fn delete(&self, paths: &[String]) -> Result<(), MediaError> {
        let mut files = Vec::with_capacity(paths.len());
        for path in paths {
            let inner = self.inner(path)?;
            if inner.is_empty() {
                return refused(format!("{path}: the media folder itself is not deleted"));
            }
            let url = format!("/{SOURCE_DIR}/{inner}");
            if let Some(user) = self.named_by(&url)? {
                return refused(format!("{path} is not deleted: {user} names {url}"));
            }
            files.push(self.content_dir.join(SOURCE_DIR).join(inner));
        }
        for file in files {
            if file.exists() {
                std::fs::remove_file(&file)
                    .with_context(|| format!("deleting {}", file.display()))?;
            }
        }
        Ok(())
    }

    /// The first content file (`content/...`) whose text holds `url`.
    fn named_by(&self, url: &str) -> Result<Option<String>, MediaError> {
        for entry in walkdir::WalkDir::new(self.content_dir).sort_by_file_name() {
            let entry = entry.context("reading the content directory")?;
            let is_text = matches!(
                entry.path().extension().and_then(|e| e.to_str()),
                Some("yaml" | "md")
            );
            if is_text && read_text(entry.path())?.contains(url) {
                let rel = entry
                    .path()
                    .strip_prefix(self.content_dir)
                    .unwrap_or(entry.path());
                return Ok(Some(format!("{}/{}", self.content_path, rel.display())));
            }
        }
        Ok(None)
    }
}

/// Writes `picture`, its folder made when new, through a temporary file and a rename.
pub fn write(picture: &Picture) -> Result<(), MediaError> {
    let path = &picture.path;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let tmp = path.with_extension("cms-tmp");
    std::fs::write(&tmp, &picture.bytes).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("replacing {}", path.display()))?;
    Ok(())
}

/// The extensions the images stage reads, as a list for a message.
fn picture_kinds() -> String {
    match RASTER_EXTENSIONS.split_last() {
        Some((last, [])) => (*last).to_owned(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// Whether `name` is a picture's by its extension (as the images stage tells them).
fn is_picture_name(name: &str) -> bool {
    crate::content::images::is_raster(name) || name.ends_with(".svg")
}

fn media_file(path: &str, bytes: &[u8]) -> MediaFile {
    MediaFile {
        id: blake3::hash(bytes).to_hex().to_string(),
        content: base64::engine::general_purpose::STANDARD.encode(bytes),
        encoding: "base64",
        path: path.to_owned(),
        name: path.rsplit('/').next().unwrap_or(path).to_owned(),
    }
}

fn read(path: &Path) -> Result<Vec<u8>, MediaError> {
    Ok(std::fs::read(path).with_context(|| format!("reading {}", path.display()))?)
}

fn read_text(path: &Path) -> Result<String, MediaError> {
    Ok(std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A PNG of one pixel.
    fn png() -> Vec<u8> {
        let mut bytes = Vec::new();
        image::RgbImage::new(1, 1)
            .write_to(
                &mut std::io::Cursor::new(&mut bytes),
                image::ImageFormat::Png,
            )
            .expect("encodes");
        bytes
    }

    fn asset(path: &str, bytes: &[u8]) -> Asset {
        Asset {
            path: path.into(),
            content: base64::engine::general_purpose::STANDARD.encode(bytes),
            encoding: "base64".into(),
        }
    }

    struct Repo {
        dir: tempfile::TempDir,
    }

    impl Repo {
        fn new() -> Self {
            let dir = tempfile::tempdir().expect("tempdir");
            std::fs::create_dir_all(dir.path().join("content/images/insights")).expect("mkdir");
            std::fs::create_dir_all(dir.path().join("site/public/images")).expect("mkdir");
            Self { dir }
        }
        fn content(&self) -> PathBuf {
            self.dir.path().join("content")
        }
        fn public(&self) -> PathBuf {
            self.dir.path().join("site/public")
        }
    }

    fn refusal(result: Result<impl std::fmt::Debug, MediaError>) -> String {
        match result {
            Err(MediaError::Refused(message)) => message,
            other => panic!("not refused: {other:?}"),
        }
    }

    #[test]
    fn an_upload_is_written_and_listed_with_its_bytes() {
        let repo = Repo::new();
        let (content, public) = (repo.content(), repo.public());
        let media = Media {
            content_path: "content",
            content_dir: &content,
            public_dir: &public,
        };
        let file = media
            .persist(&asset("content/images/chart.png", &png()))
            .expect("saved");
        assert_eq!(file.name, "chart.png");
        assert_eq!(
            std::fs::read(content.join("images/chart.png")).expect("written"),
            png()
        );
        let listed = media.list("content/images").expect("listed");
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].path, "content/images/chart.png");
        assert_eq!(
            media.get("content/images/chart.png").expect("read").content,
            file.content
        );
        // The same picture again is no change; another under its name is refused.
        media
            .persist(&asset("content/images/chart.png", &png()))
            .expect("same bytes");
        let mut other = png();
        other.extend_from_slice(b"trailing");
        assert_eq!(
            refusal(media.persist(&asset("content/images/chart.png", &other))),
            "content/images/chart.png already exists and is another picture; give this one another name"
        );
    }

    #[test]
    fn an_upload_that_is_no_picture_of_the_site_is_refused_with_why() {
        let repo = Repo::new();
        let (content, public) = (repo.content(), repo.public());
        let media = Media {
            content_path: "content",
            content_dir: &content,
            public_dir: &public,
        };
        let cases = [
            (
                "content/images/notes.txt",
                b"hello".to_vec(),
                "notes.txt: not a picture the site can publish; upload a jpg, jpeg, png or webp file",
            ),
            (
                "content/images/fake.png",
                b"GIF89a....".to_vec(),
                "fake.png: the file is not a PNG picture",
            ),
            (
                "content/images/Team Photo.png",
                png(),
                "Team Photo.png: name the picture with lowercase letters, digits and hyphens (`team-photo.jpg`)",
            ),
            (
                "content/images/team.PNG",
                png(),
                "team.PNG: name the picture with lowercase letters, digits and hyphens (`team-photo.jpg`)",
            ),
            (
                "content/images/../secret.png",
                png(),
                "content/images/../secret.png: not a path under content/images/",
            ),
            (
                "content/pages/x.png",
                png(),
                "content/pages/x.png: not under content/images/",
            ),
        ];
        for (path, bytes, message) in cases {
            assert_eq!(
                refusal(media.check(&asset(path, &bytes))),
                message,
                "{path}"
            );
        }
        let big = vec![0u8; MAX_UPLOAD_BYTES + 1];
        assert!(
            refusal(media.check(&asset("content/images/big.png", &big))).contains("is larger than")
        );
        assert!(!content.join("images/notes.txt").exists());
    }

    #[test]
    fn an_illustration_kept_in_the_sites_public_folder_is_shown_from_there() {
        let repo = Repo::new();
        let (content, public) = (repo.content(), repo.public());
        std::fs::write(public.join("images/logo.svg"), "<svg/>").expect("write");
        let media = Media {
            content_path: "content",
            content_dir: &content,
            public_dir: &public,
        };
        let file = media.get("content/images/logo.svg").expect("read");
        assert_eq!(
            file.content,
            base64::engine::general_purpose::STANDARD.encode("<svg/>")
        );
        assert!(
            media
                .get("content/images/../../site/public/images/logo.svg")
                .is_err()
        );
    }

    #[test]
    fn a_picture_the_content_names_is_not_deleted() {
        let repo = Repo::new();
        let (content, public) = (repo.content(), repo.public());
        let media = Media {
            content_path: "content",
            content_dir: &content,
            public_dir: &public,
        };
        media
            .persist(&asset("content/images/insights/used.png", &png()))
            .expect("saved");
        media
            .persist(&asset("content/images/unused.png", &png()))
            .expect("saved");
        std::fs::create_dir_all(content.join("articles")).expect("mkdir");
        std::fs::write(
            content.join("articles/a.md"),
            "---\nimage: /images/insights/used.png\n---\n",
        )
        .expect("write");
        assert_eq!(
            refusal(media.delete(&["content/images/insights/used.png".into()])),
            "content/images/insights/used.png is not deleted: content/articles/a.md names /images/insights/used.png"
        );
        media
            .delete(&["content/images/unused.png".into()])
            .expect("deleted");
        assert!(!content.join("images/unused.png").exists());
        assert!(content.join("images/insights/used.png").exists());
    }
}
