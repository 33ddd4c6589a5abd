//! URL-safe base64 without padding (RFC 4648 §5): share links' text and Kafka's `Uuid` print form.

/// The URL-safe alphabet: `A-Z a-z 0-9 - _`.
const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// `data` as URL-safe base64 without padding.
pub(crate) fn encode(data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len() * 4 / 3 + 3);
    for chunk in data.chunks(3) {
        let n = chunk.iter().fold(0u32, |acc, b| (acc << 8) | u32::from(*b)) << (8 * (3 - chunk.len()));
        for i in 0..=chunk.len() {
            out.push(char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]));
        }
    }
    out
}

/// The bytes of URL-safe base64 without padding, or `None` for a character outside the
/// alphabet or a length no encoding gives (4k + 1). Bits past the last whole byte are
/// dropped: compare `encode` of the answer with the text to refuse a non-canonical one.
pub(crate) fn decode(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let digits: Option<Vec<u32>> = text.bytes().map(|c| ALPHABET.iter().position(|b| *b == c).map(|p| p as u32)).collect();
    let digits = digits?;
    for chunk in digits.chunks(4) {
        if chunk.len() == 1 {
            return None;
        }
        let n = chunk.iter().fold(0u32, |acc, d| (acc << 6) | d) << (6 * (4 - chunk.len()));
        for i in 0..chunk.len() - 1 {
            out.push(((n >> (16 - 8 * i)) & 0xFF) as u8);
        }
    }
    Some(out)
}
