// SPDX-License-Identifier: Apache-2.0
#include "providers/responsedecoder.h"

#include "providers/ollamacodec.h"
#include "providers/openaicodec.h"

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

constexpr qsizetype kErrorBodyBytes = qsizetype(64) * 1024;

QString sizeText(qint64 bytes)
{
    constexpr qint64 mib = qint64(1024) * 1024;
    if (bytes >= mib && bytes % mib == 0)
        return u"%1 MiB"_s.arg(bytes / mib);
    return u"%1 bytes"_s.arg(bytes);
}

} // namespace

ResponseDecoder::ResponseDecoder(qint64 maxBodyBytes)
    : m_max(maxBodyBytes)
{ }

ResponseDecoder::~ResponseDecoder() = default;

bool ResponseDecoder::feed(QByteArrayView chunk)
{
    if (m_tooBig)
        return false;
    m_received += chunk.size();
    if (m_received > m_max) {
        m_tooBig = true;
        m_raw.clear();
        return false;
    }
    if (m_keepRaw || m_raw.size() < kErrorBodyBytes)
        m_raw.append(
            m_keepRaw ? chunk : chunk.first(std::min<qsizetype>(chunk.size(), kErrorBodyBytes - m_raw.size())));
    consume(chunk);
    return true;
}

ProviderReply ResponseDecoder::finish(int httpStatus)
{
    if (m_tooBig) {
        return failedReply(ErrorKind::MalformedBody,
            u"the response body exceeds the %1 limit (HTTP %2)"_s.arg(sizeText(m_max), QString::number(httpStatus)));
    }
    if (httpStatus < 200 || httpStatus >= 300)
        return httpErrorReply(httpStatus, m_raw);
    return decode();
}

std::unique_ptr<ResponseDecoder> makeResponseDecoder(ProviderKind kind, bool stream, qint64 maxBodyBytes)
{
    switch (kind) {
    case ProviderKind::OpenAI:
        if (stream)
            return std::make_unique<OpenAiStreamDecoder>(maxBodyBytes);
        return std::make_unique<OpenAiBodyDecoder>(maxBodyBytes);
    case ProviderKind::Ollama:
        return std::make_unique<OllamaDecoder>(maxBodyBytes, stream);
    case ProviderKind::Sim:
        break;
    }
    return nullptr;
}

} // namespace structscope
