//! The PNG backend with text drawn right (see [`PngText`]).

use super::backend::DEJAVU_SANS;
use plotters::prelude::{BitMapBackend, DrawingBackend};
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind,
};

/// The PNG backend with its text drawn here: plotters 0.3.7 places each glyph's outline at
/// the pen position without its left side bearing, so PNG text reads "p olicy". Everything
/// else is the bitmap backend's; the layout (sizes, anchors, rotation) is plotters' own.
pub struct PngText<'a> {
    inner: BitMapBackend<'a>,
    font: Option<ab_glyph::FontRef<'static>>,
}

impl<'a> PngText<'a> {
    pub fn new(inner: BitMapBackend<'a>) -> PngText<'a> {
        PngText {
            inner,
            font: ab_glyph::FontRef::try_from_slice(DEJAVU_SANS).ok(),
        }
    }
}

type BackendResult<E> = Result<(), DrawingErrorKind<E>>;

impl<'a> DrawingBackend for PngText<'a> {
    type ErrorType = <BitMapBackend<'a> as DrawingBackend>::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }
    fn ensure_prepared(&mut self) -> BackendResult<Self::ErrorType> {
        self.inner.ensure_prepared()
    }
    fn present(&mut self) -> BackendResult<Self::ErrorType> {
        self.inner.present()
    }
    fn draw_pixel(&mut self, at: BackendCoord, c: BackendColor) -> BackendResult<Self::ErrorType> {
        self.inner.draw_pixel(at, c)
    }
    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> BackendResult<Self::ErrorType> {
        self.inner.draw_line(from, to, style)
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> BackendResult<Self::ErrorType> {
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> BackendResult<Self::ErrorType> {
        self.inner.draw_path(path, style)
    }
    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> BackendResult<Self::ErrorType> {
        self.inner.draw_circle(center, radius, style, fill)
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> BackendResult<Self::ErrorType> {
        self.inner.fill_polygon(vert, style)
    }
    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        size: (u32, u32),
        src: &[u8],
    ) -> BackendResult<Self::ErrorType> {
        self.inner.blit_bitmap(pos, size, src)
    }

    fn draw_text<T: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &T,
        pos: BackendCoord,
    ) -> BackendResult<Self::ErrorType> {
        use ab_glyph::{Font, ScaleFont};
        let Some(font) = self.font.clone() else {
            return self.inner.draw_text(text, style, pos);
        };
        let color = style.color();
        if color.alpha == 0.0 {
            return Ok(());
        }
        // the same box, anchor and transform as plotters' default `draw_text`
        let ((min_x, min_y), (max_x, max_y)) = style
            .layout_box(text)
            .map_err(|e| DrawingErrorKind::FontError(Box::new(e)))?;
        let (width, height) = (max_x - min_x, max_y - min_y);
        let dx = match style.anchor().h_pos {
            HPos::Left => 0,
            HPos::Right => -width,
            HPos::Center => -width / 2,
        };
        let dy = match style.anchor().v_pos {
            VPos::Top => 0,
            VPos::Center => -height / 2,
            VPos::Bottom => -height,
        };
        let transform = style.transform();
        let (w, h) = self.inner.get_size();
        let size = style.size() as f32;
        let scaled = font.as_scaled(size);
        let mut pen = 0f32;
        let mut prev = None;
        let mut coverage = Vec::new();
        for ch in text.chars() {
            let id = scaled.glyph_id(ch);
            if let Some(p) = prev {
                pen += scaled.kern(p, id);
            }
            prev = Some(id);
            let glyph = id.with_scale_and_position(size, ab_glyph::point(pen, 0.0));
            if let Some(outline) = scaled.outline_glyph(glyph) {
                let bounds = outline.px_bounds();
                // horizontally at the glyph's own box (pen + bearing); vertically as plotters
                let (x0, y0) = (bounds.min.x as i32, (size / 2.0 + bounds.min.y) as i32);
                coverage.clear();
                outline.draw(|x, y, c| coverage.push((x as i32 + x0, y as i32 + y0, c)));
                for &(x, y, c) in &coverage {
                    let (x, y) = transform.transform(x + dx - min_x, y + dy - min_y);
                    let (x, y) = (pos.0 + x, pos.1 + y);
                    if x >= 0 && x < w as i32 && y >= 0 && y < h as i32 && c > 0.0 {
                        let shade = BackendColor {
                            alpha: color.alpha * f64::from(c.min(1.0)),
                            rgb: color.rgb,
                        };
                        self.inner.draw_pixel((x, y), shade)?;
                    }
                }
            }
            pen += scaled.h_advance(id);
        }
        Ok(())
    }
}
