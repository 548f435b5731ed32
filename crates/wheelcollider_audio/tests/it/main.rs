//! The synthesiser's and the plugin's tests, one binary:
//!
//! | module | what it proves |
//! | --- | --- |
//! | [`engine`] | the note's fundamental is the firing frequency (1, 4, 8 cylinders, two- and four-stroke), loudness and brightness rise with throttle, a jump in rpm does not click, the layouts' characters |
//! | [`voices`] | squeal silent without skid and rising with it, gearbox whine, wind ∝ v², impacts, a belt's clatter once a link |
//! | [`mixer`] | cars come and go without clicks, the limiter, volumes, mute, the WAV |
//! | [`plugin`] | every preset over a scripted lap renders finite within ±1, the nearest voices, distance and pan, landings become thumps |
//!
//! [`common`] has the measurements: RMS, a radix-2 FFT and the spectral centroid, the
//! fundamental by autocorrelation.

mod common;
mod engine;
mod mixer;
mod plugin;
mod voices;
