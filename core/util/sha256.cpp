// SPDX-License-Identifier: Apache-2.0
#include "util/sha256.h"

#include <QCryptographicHash>

#include <algorithm>
#include <cstddef>
#include <cstring>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>
#define STRUCTSCOPE_SHA_NI 1
#endif

namespace structscope {

namespace {

constexpr std::array<std::uint32_t, 8> kInitialState { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f,
    0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };

#ifdef STRUCTSCOPE_SHA_NI

alignas(16) constexpr std::uint32_t kRoundConstants[64] = { 0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b,
    0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
    0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc,
    0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1,
    0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08,
    0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814,
    0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2 };

bool detectShaNi()
{
    unsigned eax = 0;
    unsigned ebx = 0;
    unsigned ecx = 0;
    unsigned edx = 0;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx))
        return false;
    const bool ssse3 = ecx & (1u << 9);
    const bool sse41 = ecx & (1u << 19);
    if (!ssse3 || !sse41 || !__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx))
        return false;
    return ebx & (1u << 29); // SHA
}

// The SHA-256 compression function on the SHA extensions: four rounds per pair of sha256rnds2, the message schedule
// with sha256msg1/msg2 (the layout of Intel's reference code, written as a loop).
__attribute__((target("sha,sse4.1,ssse3"))) void compressShaNi(
    std::uint32_t* state, const std::uint8_t* data, std::size_t blocks)
{
    const __m128i byteSwap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    __m128i tmp = _mm_loadu_si128(reinterpret_cast<const __m128i*>(state));
    __m128i state1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(state + 4));
    tmp = _mm_shuffle_epi32(tmp, 0xB1); // CDAB
    state1 = _mm_shuffle_epi32(state1, 0x1B); // EFGH
    __m128i state0 = _mm_alignr_epi8(tmp, state1, 8); // ABEF
    state1 = _mm_blend_epi16(state1, tmp, 0xF0); // CDGH

    for (; blocks > 0; --blocks, data += 64) {
        const __m128i abefSaved = state0;
        const __m128i cdghSaved = state1;
        __m128i msg[4];
        for (int group = 0; group < 16; ++group) {
            __m128i& w = msg[group % 4];
            if (group < 4) {
                w = _mm_shuffle_epi8(
                    _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + std::ptrdiff_t(16) * group)), byteSwap);
            } else {
                // W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16], four words at a time.
                const __m128i& previous = msg[(group + 3) % 4];
                const __m128i& before = msg[(group + 2) % 4];
                __m128i next = _mm_sha256msg1_epu32(w, msg[(group + 1) % 4]);
                next = _mm_add_epi32(next, _mm_alignr_epi8(previous, before, 4));
                w = _mm_sha256msg2_epu32(next, previous);
            }
            __m128i words = _mm_add_epi32(
                w, _mm_load_si128(reinterpret_cast<const __m128i*>(kRoundConstants + std::ptrdiff_t(4) * group)));
            state1 = _mm_sha256rnds2_epu32(state1, state0, words);
            words = _mm_shuffle_epi32(words, 0x0E);
            state0 = _mm_sha256rnds2_epu32(state0, state1, words);
        }
        state0 = _mm_add_epi32(state0, abefSaved);
        state1 = _mm_add_epi32(state1, cdghSaved);
    }

    tmp = _mm_shuffle_epi32(state0, 0x1B); // FEBA
    state1 = _mm_shuffle_epi32(state1, 0xB1); // DCHG
    state0 = _mm_blend_epi16(tmp, state1, 0xF0); // DCBA
    state1 = _mm_alignr_epi8(state1, tmp, 8); // HGFE
    _mm_storeu_si128(reinterpret_cast<__m128i*>(state), state0);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(state + 4), state1);
}

#endif

bool useShaNi()
{
#ifdef STRUCTSCOPE_SHA_NI
    static const bool available = detectShaNi();
    return available;
#else
    return false;
#endif
}

} // namespace

Sha256::Sha256()
    : m_state(kInitialState)
{
    if (!useShaNi())
        m_fallback = std::make_unique<QCryptographicHash>(QCryptographicHash::Sha256);
}

Sha256::~Sha256() = default;

bool Sha256::accelerated()
{
    return useShaNi();
}

void Sha256::compress(const std::uint8_t* blocks, std::size_t count)
{
#ifdef STRUCTSCOPE_SHA_NI
    compressShaNi(m_state.data(), blocks, count);
#else
    Q_UNUSED(blocks);
    Q_UNUSED(count);
#endif
}

void Sha256::addData(std::string_view bytes)
{
    if (m_fallback) {
        m_fallback->addData(QByteArrayView(bytes.data(), qsizetype(bytes.size())));
        return;
    }
    const auto* data = reinterpret_cast<const std::uint8_t*>(bytes.data());
    std::size_t size = bytes.size();
    m_length += size;
    if (m_buffered > 0) {
        const std::size_t take = std::min(size, m_buffer.size() - m_buffered);
        std::memcpy(m_buffer.data() + m_buffered, data, take);
        m_buffered += take;
        data += take;
        size -= take;
        if (m_buffered < m_buffer.size())
            return;
        compress(m_buffer.data(), 1);
        m_buffered = 0;
    }
    if (const std::size_t blocks = size / 64) {
        compress(data, blocks);
        data += blocks * 64;
        size -= blocks * 64;
    }
    if (size > 0) {
        std::memcpy(m_buffer.data(), data, size);
        m_buffered = size;
    }
}

QByteArray Sha256::result()
{
    if (m_fallback)
        return m_fallback->result();
    // Padding: 0x80, zeros up to 56 mod 64, the length in bits (big-endian).
    const std::uint64_t bits = m_length * 8;
    std::uint8_t tail[128] = {};
    std::memcpy(tail, m_buffer.data(), m_buffered);
    tail[m_buffered] = 0x80;
    const std::size_t total = m_buffered < 56 ? 64 : 128;
    for (int i = 0; i < 8; ++i)
        tail[total - 1 - std::size_t(i)] = std::uint8_t(bits >> (8 * i));
    compress(tail, total / 64);
    QByteArray digest(32, Qt::Uninitialized);
    char* out = digest.data();
    for (std::size_t i = 0; i < 8; ++i) {
        for (std::size_t b = 0; b < 4; ++b)
            out[4 * i + b] = char(std::uint8_t(m_state[i] >> (24 - 8 * b)));
    }
    return digest;
}

QByteArray Sha256::hash(std::string_view bytes)
{
    Sha256 sha;
    sha.addData(bytes);
    return sha.result();
}

} // namespace structscope
