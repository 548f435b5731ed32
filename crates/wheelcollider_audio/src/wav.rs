//! Writes interleaved stereo samples as a 16-bit PCM WAV file (the RIFF layout of
//! Microsoft's multimedia specification): what the example's `--script` mode records.

use std::io::{self, Write};

/// Writes `samples` (interleaved stereo, each clamped to ±1) at `sample_rate` (Hz) to
/// `out` as a 16-bit PCM WAV.
pub fn write_wav(out: &mut impl Write, samples: &[f32], sample_rate: u32) -> io::Result<()> {
    let data_bytes = u32::try_from(samples.len() * 2)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "over 4 GiB of samples"))?;
    let channels: u16 = 2;
    let block_align = channels * 2;
    out.write_all(b"RIFF")?;
    out.write_all(&(36 + data_bytes).to_le_bytes())?;
    out.write_all(b"WAVEfmt ")?;
    out.write_all(&16u32.to_le_bytes())?;
    out.write_all(&1u16.to_le_bytes())?; // PCM
    out.write_all(&channels.to_le_bytes())?;
    out.write_all(&sample_rate.to_le_bytes())?;
    out.write_all(&(sample_rate * block_align as u32).to_le_bytes())?;
    out.write_all(&block_align.to_le_bytes())?;
    out.write_all(&16u16.to_le_bytes())?;
    out.write_all(b"data")?;
    out.write_all(&data_bytes.to_le_bytes())?;
    let mut bytes = Vec::with_capacity(samples.len() * 2);
    for s in samples {
        let v = if s.is_finite() {
            (s.clamp(-1.0, 1.0) * 32767.0).round() as i16
        } else {
            0
        };
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    out.write_all(&bytes)
}
