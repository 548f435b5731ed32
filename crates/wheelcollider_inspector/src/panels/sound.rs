//! The Sim tab's sound section (feature `audio`): mute, the master volume and each
//! voice's, how many cars are heard and how distance fades them, and each ground's
//! sound. Edits go straight to `SoundSettings`, which the mixer clamps.

use bevy_egui::egui;
use wheelcollider_audio::GroundSound;
use wheelcollider_audio::plugin::SoundSettings;

use super::num;

/// The sound section; returns whether anything changed.
pub(super) fn sound_ui(ui: &mut egui::Ui, audio: &mut SoundSettings) -> bool {
    let mut changed = false;
    ui.label("Sound (M mutes in the example)");
    changed |= ui.checkbox(&mut audio.muted, "mute").changed();
    egui::Grid::new("sound_volumes").num_columns(2).show(ui, |ui| {
        let v = &mut audio.volumes;
        for (label, value) in [
            ("master", &mut v.master),
            ("engine", &mut v.engine),
            ("gearbox", &mut v.gearbox),
            ("tyre squeal", &mut v.tyres),
            ("road", &mut v.surface),
            ("wind", &mut v.wind),
            ("impacts", &mut v.impacts),
            ("tracks", &mut v.tracks),
        ] {
            changed |= num(ui, label, value, 0.0..=4.0, " ×", 0.01);
        }
        ui.label("cars heard");
        changed |= ui.add(egui::DragValue::new(&mut audio.cars).range(0..=64)).changed();
        ui.end_row();
        changed |= num(
            ui,
            "full volume within",
            &mut audio.reference_distance,
            0.1..=100.0,
            " m",
            0.1,
        );
        changed |= num(ui, "rolloff", &mut audio.rolloff, 0.0..=10.0, "", 0.01);
        let near = audio.reference_distance;
        changed |= num(ui, "heard within", &mut audio.max_distance, near..=5000.0, " m", 1.0);
        changed |= num(ui, "stereo width", &mut audio.stereo_width, 0.0..=1.0, "", 0.01);
    });
    egui::CollapsingHeader::new("grounds").show(ui, |ui| {
        let g = &mut audio.grounds;
        for (name, ground) in [
            ("asphalt", &mut g.asphalt),
            ("gravel", &mut g.gravel),
            ("grass", &mut g.grass),
            ("ice", &mut g.ice),
            ("metal", &mut g.metal),
        ] {
            changed |= ground_ui(ui, name, ground);
        }
    });
    changed
}

fn ground_ui(ui: &mut egui::Ui, name: &str, g: &mut GroundSound) -> bool {
    let mut changed = false;
    ui.label(name);
    egui::Grid::new(("sound_ground", name)).num_columns(2).show(ui, |ui| {
        for (label, value) in [
            ("rumble", &mut g.rumble),
            ("hiss", &mut g.hiss),
            ("crunch", &mut g.crunch),
            ("swish", &mut g.swish),
            ("squeal", &mut g.squeal),
        ] {
            changed |= num(ui, label, value, 0.0..=2.0, " ×", 0.01);
        }
    });
    changed
}
