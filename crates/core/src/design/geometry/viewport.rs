//! Which part of the canvas the board shows, and the pointer gestures on
//! it, as plain maths and a small state machine: the board component
//! measures the SVG and forwards pointer events; everything it decides
//! from them is here, tested without a browser.
//!
//! Node positions stay in the graph (they are saved with the design, and
//! undo restores them with everything else); the viewport is not saved.

use crate::design::geometry::layout::{NODE_H, NODE_W};
use crate::design::graph::{NodeId, NodeKind};

/// The board's size in canvas units at zoom 1 (its CSS keeps this ratio).
pub const VIEW_W: f64 = 800.0;
pub const VIEW_H: f64 = 450.0;
pub const MIN_ZOOM: f64 = 0.25;
pub const MAX_ZOOM: f64 = 2.5;
/// How far a pointer travels before a press becomes a drag.
pub const DRAG_SLOP: f64 = 6.0;

/// Where the board sits on screen, in client pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Screen {
    pub left: f64,
    pub top: f64,
    pub width: f64,
    pub height: f64,
}

impl Screen {
    pub fn contains(&self, client_x: f64, client_y: f64) -> bool {
        (self.left..=self.left + self.width).contains(&client_x)
            && (self.top..=self.top + self.height).contains(&client_y)
    }
}

/// Which part of the canvas is shown: the top-left corner and the zoom.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Viewport {
    pub x: f64,
    pub y: f64,
    pub zoom: f64,
}

impl Default for Viewport {
    fn default() -> Self {
        Self {
            x: 0.0,
            y: 0.0,
            zoom: 1.0,
        }
    }
}

impl Viewport {
    /// Canvas units per client pixel on a board `width` pixels wide.
    fn scale(&self, width: f64) -> f64 {
        VIEW_W / self.zoom / width.max(1.0)
    }

    /// A client point in canvas units; `None` while the board has no size.
    pub fn to_canvas(&self, screen: Screen, client_x: f64, client_y: f64) -> Option<(i32, i32)> {
        if screen.width <= 0.0 {
            return None;
        }
        let scale = self.scale(screen.width);
        Some((
            (self.x + (client_x - screen.left) * scale).round() as i32,
            (self.y + (client_y - screen.top) * scale).round() as i32,
        ))
    }

    /// Zoomed by `factor` (within the limits) about the centre of the view.
    pub fn zoomed(&self, factor: f64) -> Viewport {
        let zoom = (self.zoom * factor).clamp(MIN_ZOOM, MAX_ZOOM);
        let (cx, cy) = (
            self.x + VIEW_W / self.zoom / 2.0,
            self.y + VIEW_H / self.zoom / 2.0,
        );
        Viewport {
            x: cx - VIEW_W / zoom / 2.0,
            y: cy - VIEW_H / zoom / 2.0,
            zoom,
        }
    }

    /// Panned (never zoomed) just enough that the node at `(x, y)`, with a
    /// margin, is inside the view.
    pub fn revealing(&self, x: i32, y: i32) -> Viewport {
        let (w, h) = (VIEW_W / self.zoom, VIEW_H / self.zoom);
        let (x0, y0) = (f64::from(x) - 20.0, f64::from(y) - 20.0);
        let (x1, y1) = (x0 + f64::from(NODE_W) + 40.0, y0 + f64::from(NODE_H) + 40.0);
        let mut next = *self;
        if x0 < self.x {
            next.x = x0;
        } else if x1 > self.x + w {
            next.x = x1 - w;
        }
        if y0 < self.y {
            next.y = y0;
        } else if y1 > self.y + h {
            next.y = y1 - h;
        }
        next
    }

    /// The view from `start` after the pointer moved by the given client
    /// pixels on a board `width` pixels wide: the canvas follows the pointer.
    pub fn panned(start: Viewport, dx: f64, dy: f64, width: f64) -> Viewport {
        let scale = start.scale(width);
        Viewport {
            x: start.x - dx * scale,
            y: start.y - dy * scale,
            zoom: start.zoom,
        }
    }

    /// The view showing all of `bounds` (x, y, width, height), never
    /// zoomed in past 100 %.
    pub fn fitting(bounds: (i32, i32, i32, i32)) -> Viewport {
        let (x, y, w, h) = bounds;
        let zoom = (VIEW_W / f64::from(w.max(1)))
            .min(VIEW_H / f64::from(h.max(1)))
            .clamp(MIN_ZOOM, 1.0);
        Viewport {
            x: f64::from(x),
            y: f64::from(y),
            zoom,
        }
    }

    /// Whether part of `bounds` lies outside the board at 100 % from the
    /// origin (an opened design drawn elsewhere needs fitting).
    pub fn hides(bounds: (i32, i32, i32, i32)) -> bool {
        let (x, y, w, h) = bounds;
        x < 0
            || y < 0
            || f64::from(x.saturating_add(w)) > VIEW_W
            || f64::from(y.saturating_add(h)) > VIEW_H
    }

    /// The SVG `viewBox`, in whole units.
    pub fn view_box(&self) -> String {
        let whole = |f: f64| f.round() as i64;
        format!(
            "{} {} {} {}",
            whole(self.x),
            whole(self.y),
            whole(VIEW_W / self.zoom),
            whole(VIEW_H / self.zoom)
        )
    }

    /// The zoom as a whole percentage.
    pub fn percent(&self) -> i64 {
        (self.zoom * 100.0).round() as i64
    }
}

/// A pointer gesture in progress.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Drag {
    /// A node follows the pointer; `(dx, dy)` is where it was grabbed.
    Move {
        id: NodeId,
        dx: i32,
        dy: i32,
        x: i32,
        y: i32,
        moved: bool,
    },
    /// A wire from `from`'s output port to the pointer.
    Connect { from: NodeId, x: i32, y: i32 },
    Pan {
        client_x: f64,
        client_y: f64,
        start: Viewport,
    },
    /// A palette item carried towards the board.
    Place {
        kind: NodeKind,
        client_x: f64,
        client_y: f64,
        moved: bool,
    },
}

/// What a pointer move does to a gesture.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Follow {
    Drag(Drag),
    /// A pan moves the view, not the gesture.
    View(Viewport),
    /// Nothing to do (the board has no size yet).
    Still,
}

/// What letting go ends a gesture with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Release {
    Moved {
        id: NodeId,
        x: i32,
        y: i32,
    },
    /// A wire dropped at a canvas point (the caller finds the node there).
    WireAt {
        from: NodeId,
        x: i32,
        y: i32,
    },
    /// A palette item dropped on the board, centred on the pointer.
    Placed {
        kind: NodeKind,
        x: i32,
        y: i32,
    },
    /// A carried item came back off the board, or nothing moved.
    Nothing,
}

impl Drag {
    /// The gesture after the pointer moved to `(cx, cy)` on `screen`.
    pub fn follow(self, view: Viewport, screen: Screen, cx: f64, cy: f64) -> Follow {
        let at = view.to_canvas(screen, cx, cy);
        match (self, at) {
            (Drag::Move { id, dx, dy, .. }, Some((x, y))) => Follow::Drag(Drag::Move {
                id,
                dx,
                dy,
                x: x.saturating_sub(dx),
                y: y.saturating_sub(dy),
                moved: true,
            }),
            (Drag::Connect { from, .. }, Some((x, y))) => {
                Follow::Drag(Drag::Connect { from, x, y })
            }
            (Drag::Move { .. } | Drag::Connect { .. }, None) => Follow::Still,
            (
                Drag::Pan {
                    client_x,
                    client_y,
                    start,
                },
                _,
            ) => Follow::View(Viewport::panned(
                start,
                cx - client_x,
                cy - client_y,
                screen.width,
            )),
            (
                Drag::Place {
                    kind,
                    client_x,
                    client_y,
                    moved,
                },
                _,
            ) => Follow::Drag(Drag::Place {
                kind,
                client_x,
                client_y,
                moved: moved || (cx - client_x).hypot(cy - client_y) > DRAG_SLOP,
            }),
        }
    }

    /// What letting go at `(cx, cy)` on `screen` ends the gesture with.
    pub fn release(self, view: Viewport, screen: Screen, cx: f64, cy: f64) -> Release {
        match self {
            Drag::Move {
                id,
                x,
                y,
                moved: true,
                ..
            } => Release::Moved { id, x, y },
            Drag::Connect { from, x, y } => Release::WireAt { from, x, y },
            Drag::Place {
                kind, moved: true, ..
            } if screen.contains(cx, cy) => match view.to_canvas(screen, cx, cy) {
                Some((x, y)) => Release::Placed {
                    kind,
                    x: x.saturating_sub(NODE_W / 2),
                    y: y.saturating_sub(NODE_H / 2),
                },
                None => Release::Nothing,
            },
            _ => Release::Nothing,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCREEN: Screen = Screen {
        left: 100.0,
        top: 50.0,
        width: 400.0,
        height: 225.0,
    };

    #[test]
    fn client_points_map_to_canvas_units_through_pan_and_zoom() {
        let v = Viewport::default();
        // The board is drawn at half size: one pixel is two canvas units.
        assert_eq!(v.to_canvas(SCREEN, 100.0, 50.0), Some((0, 0)));
        assert_eq!(v.to_canvas(SCREEN, 500.0, 275.0), Some((800, 450)));
        let z = Viewport {
            x: 40.0,
            y: -10.0,
            zoom: 2.0,
        };
        assert_eq!(z.to_canvas(SCREEN, 300.0, 50.0), Some((240, -10)));
        let hidden = Screen {
            width: 0.0,
            ..SCREEN
        };
        assert_eq!(v.to_canvas(hidden, 1.0, 1.0), None);
    }

    #[test]
    fn zooming_keeps_the_centre_and_stays_within_limits() {
        let v = Viewport::default();
        let centre = |v: &Viewport| (v.x + VIEW_W / v.zoom / 2.0, v.y + VIEW_H / v.zoom / 2.0);
        let mut z = v;
        for _ in 0..20 {
            z = z.zoomed(1.25);
            let (cx, cy) = centre(&z);
            assert!((cx - 400.0).abs() < 1e-9 && (cy - 225.0).abs() < 1e-9);
        }
        assert_eq!(z.zoom, MAX_ZOOM);
        for _ in 0..40 {
            z = z.zoomed(0.8);
        }
        assert_eq!(z.zoom, MIN_ZOOM);
        assert_eq!(z.percent(), 25);
    }

    #[test]
    fn revealing_pans_just_enough_and_never_zooms() {
        let v = Viewport::default();
        assert_eq!(v.revealing(100, 100), v, "already in view");
        let right = v.revealing(900, 100);
        assert_eq!(right.zoom, 1.0);
        assert!(right.x > 0.0 && right.x + VIEW_W >= f64::from(900 + NODE_W));
        let left = v.revealing(-300, -200);
        assert_eq!((left.x, left.y), (-320.0, -220.0));
    }

    #[test]
    fn fitting_shows_every_node_and_never_magnifies() {
        let small = Viewport::fitting((10, 20, 100, 50));
        assert_eq!(small.zoom, 1.0);
        let wide = Viewport::fitting((-100, 0, 3200, 450));
        assert_eq!(wide.zoom, 0.25);
        assert!(Viewport::hides((-100, 0, 3200, 450)));
        assert!(!Viewport::hides((0, 0, 800, 450)));
        assert_eq!(Viewport::default().view_box(), "0 0 800 450");
    }

    #[test]
    fn a_node_follows_the_pointer_from_where_it_was_grabbed() {
        let v = Viewport::default();
        let grab = Drag::Move {
            id: NodeId(3),
            dx: 10,
            dy: 4,
            x: 0,
            y: 0,
            moved: false,
        };
        let Follow::Drag(moved) = grab.follow(v, SCREEN, 200.0, 100.0) else {
            panic!("a move follows")
        };
        assert_eq!(
            moved,
            Drag::Move {
                id: NodeId(3),
                dx: 10,
                dy: 4,
                x: 190,
                y: 96,
                moved: true
            }
        );
        assert_eq!(
            moved.release(v, SCREEN, 200.0, 100.0),
            Release::Moved {
                id: NodeId(3),
                x: 190,
                y: 96
            }
        );
        assert_eq!(
            grab.release(v, SCREEN, 200.0, 100.0),
            Release::Nothing,
            "a click is not a move"
        );
    }

    #[test]
    fn a_pan_drags_the_canvas_and_a_carried_item_lands_only_on_the_board() {
        let v = Viewport::default();
        let pan = Drag::Pan {
            client_x: 300.0,
            client_y: 150.0,
            start: v,
        };
        assert_eq!(
            pan.follow(v, SCREEN, 310.0, 140.0),
            Follow::View(Viewport {
                x: -20.0,
                y: 20.0,
                zoom: 1.0
            })
        );
        let carry = Drag::Place {
            kind: NodeKind::Write,
            client_x: 10.0,
            client_y: 10.0,
            moved: false,
        };
        let Follow::Drag(nudged) = carry.follow(v, SCREEN, 13.0, 13.0) else {
            panic!("a carry follows")
        };
        assert_eq!(nudged, carry, "within the slop it is still a click");
        let Follow::Drag(carried) = carry.follow(v, SCREEN, 300.0, 150.0) else {
            panic!("a carry follows")
        };
        assert_eq!(carried.release(v, SCREEN, 20.0, 20.0), Release::Nothing);
        assert_eq!(
            carried.release(v, SCREEN, 300.0, 150.0),
            Release::Placed {
                kind: NodeKind::Write,
                x: 400 - NODE_W / 2,
                y: 200 - NODE_H / 2
            }
        );
    }
}
