// SPDX-License-Identifier: Apache-2.0
#include "widgets/modelprofileeditor.h"

#include "providers/providerrequest.h"
#include "sim/simprofile.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpressionValidator>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace structscope {

ModelProfileEditor::ModelProfileEditor(QWidget* parent)
    : QWidget(parent)
    , m_kind(new QComboBox(this))
    , m_model(new QLineEdit(this))
    , m_baseUrl(new QLineEdit(this))
    , m_keyEnv(new QLineEdit(this))
    , m_options(new QLineEdit(this))
    , m_keyState(new QLabel(this))
    , m_test(new QPushButton(tr("Test Connection"), this))
    , m_add(new QPushButton(tr("Add to List"), this))
    , m_connection(new QLabel(this))
    , m_connectionTest(new ConnectionTest(this))
{
    m_kind->setObjectName(u"kindCombo"_s);
    m_kind->addItem(tr("OpenAI-compatible"), providerKindName(ProviderKind::OpenAI));
    m_kind->addItem(tr("Ollama"), providerKindName(ProviderKind::Ollama));
    m_kind->addItem(tr("Simulated"), providerKindName(ProviderKind::Sim));
    m_model->setObjectName(u"modelNameEdit"_s);
    m_model->setPlaceholderText(tr("e.g. gpt-4.1-mini, qwen3:8b, careful"));
    m_baseUrl->setObjectName(u"baseUrlEdit"_s);
    m_keyEnv->setObjectName(u"keyEnvEdit"_s);
    m_keyEnv->setToolTip(tr("The name of the environment variable that holds the API key — never the key itself. "
                            "StructScope reads it when it sends, and never stores it."));
    m_keyEnv->setValidator(new QRegularExpressionValidator(QRegularExpression(u"[A-Za-z_][A-Za-z0-9_]*"_s), m_keyEnv));
    m_options->setObjectName(u"optionsEdit"_s);
    m_options->setPlaceholderText(tr("optional: temperature=0.2;max_tokens=1024;seed=7;stream"));
    m_keyState->setObjectName(u"keyStateLabel"_s);
    m_connection->setObjectName(u"connectionLabel"_s);
    m_connection->setWordWrap(true);
    m_connection->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_test->setObjectName(u"testConnectionButton"_s);
    m_add->setObjectName(u"addProfileButton"_s);

    connect(m_kind, &QComboBox::currentIndexChanged, this, &ModelProfileEditor::kindChanged);
    connect(m_keyEnv, &QLineEdit::textChanged, this, &ModelProfileEditor::updateKeyState);
    connect(m_baseUrl, &QLineEdit::textChanged, this, &ModelProfileEditor::updateKeyState); // the default key
    for (QLineEdit* edit : { m_model, m_baseUrl, m_keyEnv, m_options })
        connect(edit, &QLineEdit::textChanged, this, &ModelProfileEditor::updateButtons);
    connect(m_test, &QPushButton::clicked, this, &ModelProfileEditor::testConnection);
    connect(m_add, &QPushButton::clicked, this, [this] {
        QString error;
        if (const auto spec = profile(&error))
            Q_EMIT addRequested(*spec);
        else
            setMessage(tr("Cannot add the profile: %1").arg(error));
    });
    connect(m_connectionTest, &ConnectionTest::finished, this, &ModelProfileEditor::showConnection);

    auto* form = new QFormLayout;
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(tr("Kind:"), m_kind);
    form->addRow(tr("Model:"), m_model);
    form->addRow(tr("Base URL:"), m_baseUrl);
    auto* keyRow = new QHBoxLayout;
    keyRow->addWidget(m_keyEnv, 1);
    keyRow->addWidget(m_keyState);
    form->addRow(tr("API key variable:"), keyRow);
    form->addRow(tr("Options:"), m_options);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_test);
    buttons->addStretch(1);
    buttons->addWidget(m_add);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(form);
    layout->addLayout(buttons);
    layout->addWidget(m_connection);
    kindChanged();
}

void ModelProfileEditor::setProfile(const ModelSpec& spec)
{
    m_kind->setCurrentIndex(m_kind->findData(providerKindName(spec.kind)));
    m_model->setText(spec.model);
    m_baseUrl->setText(spec.isSimulated() ? QString() : spec.baseUrl);
    m_keyEnv->setText(spec.keyEnv);
    // The options are what the spec text carries after the endpoint and the key variable.
    ModelSpec endpoint;
    endpoint.kind = spec.kind;
    endpoint.model = spec.model;
    endpoint.baseUrl = spec.baseUrl;
    endpoint.keyEnv = spec.keyEnv;
    const QString full = formatModelSpec(spec);
    const QString head = formatModelSpec(endpoint);
    m_options->setText(full.startsWith(head + u';') ? full.mid(head.size() + 1) : QString());
    m_connection->clear();
}

std::optional<ModelSpec> ModelProfileEditor::profile(QString* error) const
{
    ModelSpec spec;
    spec.kind = providerKindFromName(m_kind->currentData().toString()).value_or(ProviderKind::OpenAI);
    spec.model = m_model->text().trimmed();
    if (!spec.isSimulated()) {
        spec.baseUrl = m_baseUrl->text().trimmed();
        spec.keyEnv = m_keyEnv->text().trimmed();
        if (spec.keyEnv.isEmpty())
            spec.keyEnv = defaultKeyEnv(spec.kind, spec.baseUrl);
    }
    if (spec.model.isEmpty()) {
        if (error)
            *error = tr("Name the model.");
        return std::nullopt;
    }
    // The model-spec parser is the one judge of what a profile may be (the command line uses it too).
    QString text = formatModelSpec(spec);
    if (const QString options = m_options->text().trimmed(); !options.isEmpty())
        text += u';' + options;
    QString problem;
    auto parsed = parseModelSpec(text, &problem);
    if (!parsed) {
        if (error)
            *error = problem;
        return std::nullopt;
    }
    if (parsed->isSimulated() && !findSimProfile(parsed->model)) {
        QStringList names;
        for (const SimProfile& p : simProfiles())
            names << p.name;
        if (error)
            *error = tr("there is no simulated model '%1' (there are: %2)").arg(parsed->model, names.join(u", "_s));
        return std::nullopt;
    }
    return parsed;
}

void ModelProfileEditor::setAllowInsecureKey(bool allow)
{
    m_connectionTest->setAllowInsecureKey(allow);
}

void ModelProfileEditor::kindChanged()
{
    const auto kind = providerKindFromName(m_kind->currentData().toString()).value_or(ProviderKind::OpenAI);
    const bool sim = kind == ProviderKind::Sim;
    const QString simWhy = tr("Simulated models run inside StructScope: no URL, no key");
    m_baseUrl->setEnabled(!sim);
    m_keyEnv->setEnabled(!sim);
    m_baseUrl->setPlaceholderText(sim ? QString() : defaultBaseUrl(kind));
    m_baseUrl->setToolTip(sim ? simWhy : tr("Empty: %1").arg(defaultBaseUrl(kind)));
    m_keyEnv->setPlaceholderText(sim ? QString() : defaultKeyEnv(kind).isEmpty() ? tr("none") : defaultKeyEnv(kind));
    if (sim) {
        m_baseUrl->clear();
        m_keyEnv->clear();
    }
    updateKeyState();
    updateButtons();
}

void ModelProfileEditor::updateKeyState()
{
    const auto kind = providerKindFromName(m_kind->currentData().toString()).value_or(ProviderKind::OpenAI);
    // OPENAI_API_KEY is the default for the official endpoint only; any other URL names its variable.
    const QString fallback = defaultKeyEnv(kind, m_baseUrl->text().trimmed());
    if (kind != ProviderKind::Sim)
        m_keyEnv->setPlaceholderText(fallback.isEmpty() ? tr("none") : fallback);
    QString variable = m_keyEnv->text().trimmed();
    if (variable.isEmpty())
        variable = fallback;
    if (kind == ProviderKind::Sim || variable.isEmpty()) {
        m_keyState->clear();
        return;
    }
    // Only whether it is set: the key itself is never read into the interface.
    m_keyState->setText(qEnvironmentVariableIsEmpty(variable.toLocal8Bit().constData()) ? tr("not set") : tr("set"));
    m_keyState->setToolTip(tr("Whether %1 is set in StructScope's environment").arg(variable));
}

void ModelProfileEditor::updateButtons()
{
    QString error;
    const auto spec = profile(&error);
    m_add->setEnabled(spec.has_value());
    m_add->setToolTip(spec ? tr("Adds %1 to the list and ticks it").arg(formatModelSpec(*spec)) : error);
    m_test->setEnabled(spec.has_value() && !m_connectionTest->isRunning());
    m_test->setToolTip(!spec                ? error
            : m_connectionTest->isRunning() ? tr("A test is running")
            : spec->isSimulated()           ? tr("Simulated models need no connection")
                                            : tr("Sends one small request to %1").arg(chatEndpoint(*spec).toString()));
}

void ModelProfileEditor::testConnection()
{
    QString error;
    const auto spec = profile(&error);
    if (!spec) {
        setMessage(tr("Cannot test: %1").arg(error));
        return;
    }
    setMessage(spec->isSimulated() ? QString() : tr("Testing %1…").arg(chatEndpoint(*spec).toString()));
    m_connectionTest->start(*spec);
    updateButtons();
}

void ModelProfileEditor::showConnection(const ConnectionTestResult& result)
{
    setMessage((result.ok ? u"✔ "_s : u"✘ "_s) + result.message);
    updateButtons();
    Q_EMIT connectionTested(result);
}

bool ModelProfileEditor::isTesting() const
{
    return m_connectionTest->isRunning();
}

QString ModelProfileEditor::connectionText() const
{
    return m_connection->text();
}

void ModelProfileEditor::setMessage(const QString& text)
{
    m_connection->setText(text);
}

} // namespace structscope
