// Generated from the service's /openapi.json by `npm run generate -w @consigna/sdk`.
// Do not edit: change the routes' schemas in src/ and regenerate.

export interface paths {
  '/healthz': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Processo vivo */
    get: operations['verificarVida'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/readyz': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Pronto para tráfego (banco de dados respondendo) */
    get: operations['verificarProntidao'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/eventos': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Listar os eventos do canal
     * @description Os eventos de proposta do canal, do mais recente ao mais antigo, com os mesmos corpos que os webhooks levam: dá para reconstruir o estado de cada link só com esta lista. Páginas por cursor: passe o `proximoCursor` da resposta para a página seguinte (mais antiga). O cursor é estável enquanto eventos novos chegam: eles aparecem no topo, nunca deslocam nem pulam as páginas seguintes. Um evento entra na lista quando toda transação mais antiga que a dele terminou (normalmente milissegundos). Os filtros valem juntos; com cursor, use os mesmos filtros da primeira página.
     */
    get: operations['listarEventos'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/eventos/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Consultar um evento
     * @description O corpo do evento byte a byte como foi assinado (o mesmo das entregas). Evento de outro canal: 404.
     */
    get: operations['consultarEvento'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/links': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Listar os links do canal
     * @description Os links do canal, do mais recente ao mais antigo (`criadoEm`), cada um como em `GET /v1/links/{id}`: nunca traz `url`, o CPF vem mascarado. Páginas por cursor, como em `GET /v1/eventos`: passe o `proximoCursor` da resposta em `cursor` para a página seguinte (mais antiga); sem `proximoCursor`, acabou. Links criados enquanto você pagina aparecem no topo de uma nova listagem e nunca deslocam, repetem ou pulam as páginas seguintes. O cursor vale só para o canal que o recebeu. Os filtros valem juntos; com cursor, use os mesmos filtros da primeira página.
     */
    get: operations['listarLinks'];
    put?: never;
    /**
     * Criar link de contratação
     * @description Cria um link de contratação para o CPF do cliente. Envie a `url` somente ao cliente. No sandbox, o CPF escolhe o cenário (veja a documentação). CPF `00000000434`: banco indisponível (503).
     */
    post: operations['criarLink'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/links/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Consultar link e proposta
     * @description Estado do link e da proposta, a qualquer momento. Nunca traz `url`. Link de outro canal, id inexistente ou que não é uuid: 404.
     */
    get: operations['consultarLink'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/links/{id}/expiracao/simular': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Simular a expiração do link (somente sandbox)
     * @description Expira o link agora, como se `expiraEm` tivesse passado: o status vai a EXPIRADO, `expiraEm` passa a ser agora e a página hospedada passa a dizer que o link expirou. Vale a partir de CRIADO, ABERTO ou EM_ANDAMENTO, como a expiração pelo tempo, e não gera evento (a expiração não gera). Sem corpo. Responde com o link como ficou. Em REAL: 404.
     */
    post: operations['simularExpiracao'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/links/{id}/jornada/simular': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Simular a jornada do cliente até a proposta (somente sandbox)
     * @description Percorre, sem navegador, as etapas que o cliente faria na página hospedada (código por SMS, autorização da consulta, a primeira oferta, dados fictícios e o envio da proposta), pelos mesmos serviços da página, a partir da etapa em que o link estiver. Os CPFs de cenário se comportam como no navegador: inelegível, SMS recusado e sem oferta terminam o link em CANCELADO; `…515` gera `proposta.falha` e o link continua aberto (chame de novo para tentar outra vez); `…604` gera só `proposta.criada`. Responde com o link como ficou, com `proposta` quando criada. Sem corpo (ou `{}`). Repetir a chamada nunca cria uma segunda proposta: com a proposta criada, a resposta é 409 `jornada_concluida`. Em REAL: 404.
     */
    post: operations['simularJornada'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/links/{id}/proposta/simular': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Simular status da proposta (somente sandbox)
     * @description Aplica um status à proposta de um link do sandbox como se o banco o tivesse informado, e gera o evento correspondente (`proposta.formalizada`, `proposta.aprovada`, `proposta.recusada`, `proposta.cancelada`). O status nunca volta; RECUSADA e CANCELADA são finais. Mesmo status: 200 com `alterado` false, sem evento. Em REAL: 404.
     */
    post: operations['simularProposta'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/marca': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Consultar a marca do canal
     * @description A marca definida, com a cor que as páginas aplicam e a URL do logo.
     */
    get: operations['consultarMarca'];
    /**
     * Definir a marca do canal
     * @description O nome, o logo e a cor que o cliente vê em todas as páginas da contratação, inclusive as finais e a de assinatura. Substitui a marca inteira (um campo ausente volta ao padrão). Criação: 201; atualização: 200. Tudo é validado antes de gravar: um campo inválido deixa a marca como estava.
     */
    put: operations['definirMarca'];
    post?: never;
    /**
     * Remover a marca do canal
     * @description As páginas voltam a mostrar o nome do canal com as cores padrão. 204 sem corpo.
     */
    delete: operations['removerMarca'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/oauth/token': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Obter token de acesso (client credentials)
     * @description Troca `client_id`/`client_secret` por um token Bearer válido por 3600 s. Credenciais no cabeçalho `Authorization: Basic base64(client_id:client_secret)` (recomendado) ou no corpo, nunca nos dois. Cliente desconhecido, segredo errado, canal inativo e IP não permitido recebem a mesma resposta 401 `invalid_client`. Após 10 falhas para um `client_id` (ou 30 de um IP) em 15 minutos, o `client_id` (ou IP) fica bloqueado por 15 minutos: 429 `too_many_attempts` com `Retry-After`, mesmo com credenciais corretas.
     */
    post: operations['emitirToken'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/ping': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Confirmar token e canal
     * @description Confirma que o token é válido e o canal está ativo; `dbTime` vem do banco de dados.
     */
    get: operations['confirmarToken'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/portal/sessoes': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Criar um link de acesso ao portal
     * @description Um link de uso único, válido por 10 minutos, para a equipe do canal entrar no portal (funil, links, webhooks, marca). Aberto no navegador, mostra o botão **Entrar no portal**; ao entrar, começa uma sessão de até 8 horas, encerrada por **Sair**, por `DELETE /v1/portal/sessoes` ou ao desativar o canal. A `url` é um segredo: entregue-a só a quem vai usá-la; ela nunca é mostrada de novo.
     */
    post: operations['criarSessaoPortal'];
    /**
     * Encerrar todas as sessões do portal
     * @description Encerra na hora todas as sessões do portal do canal; os links de acesso ainda não usados deixam de valer. Quem estiver no portal vê "Sessão encerrada" na próxima página.
     */
    delete: operations['encerrarSessoesPortal'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/relatorios/funil': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Funil dos links do canal
     * @description Até onde chegaram os links criados no período: criados, abertos, em andamento, concluídos (com proposta), cancelados, expirados e as propostas por status, agrupados por dia de criação ou por `referenciaExterna`. Os dias são de America/Sao_Paulo (um link criado às 02:30 UTC conta no dia anterior). Cada link conta no dia em que foi criado, pelo ponto a que chegou até agora. Período de no máximo 366 dias, `de` e `ate` inclusive.
     */
    get: operations['consultarFunil'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/sandbox/receptor': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /**
     * Criar (ou obter) o receptor de testes
     * @description Cria o receptor do canal ou devolve o existente (sempre a mesma URL). `responderStatus` opcional muda o status de resposta.
     */
    put: operations['garantirReceptor'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/sandbox/receptor/{token}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Receber um evento (URL do webhook de testes)
     * @description Sem Bearer. Guarda o pedido (hora, tipo, id do evento, tentativa, cabeçalhos, corpo), verifica `X-Service-Signature` com os segredos do webhook do canal (atual e anterior durante a rotação) e responde com o status configurado (padrão 200). Corpo até 64 KB (65.536 bytes).
     */
    post: operations['receberEvento'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/sandbox/receptor/{token}/eventos': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Listar os eventos recebidos
     * @description Sem Bearer. Mais recentes primeiro, no máximo 50.
     */
    get: operations['listarEventosReceptor'];
    put?: never;
    post?: never;
    /**
     * Apagar os eventos recebidos (pelo token)
     * @description Sem Bearer: o que a página de visualização usa para limpar a lista.
     */
    delete: operations['apagarEventosReceptorPorToken'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/sandbox/receptor/{token}/eventos/{id}/corpo': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Obter o corpo exato de um evento recebido
     * @description Sem Bearer. Os bytes exatos que chegaram (até 64 KB), como `text/plain; charset=utf-8`, para ler ou copiar o corpo inteiro: a página de visualização mostra só uma prévia de cada corpo.
     */
    get: operations['obterCorpoEventoReceptor'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/sandbox/receptor/{token}/eventos/fluxo': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Receber os eventos do receptor à medida que chegam (Server-Sent Events)
     * @description Sem Bearer. `text/event-stream`: primeiro um evento `pronto` (`data: {"ultimoId": N}`, `id: N`), depois um evento `evento` por registro recebido (`id` = id do registro; `data` = o registro como em `GET …/eventos`, mais `corpoBase64`: os bytes exatos que chegaram), e um comentário `: ping` a cada 15 s. Sem `Last-Event-ID` nem `desde`, só o que chegar depois da conexão; com eles, antes tudo o que o receptor ainda guarda (os 50 mais recentes) depois desse id. O EventSource do navegador reconecta sozinho com `Last-Event-ID`; o comando `listen` do SDK usa este fluxo. No máximo 10 fluxos abertos por receptor em cada processo do serviço. O serviço só escreve enquanto o cliente lê: um cliente que não lê nada por 15 s com eventos esperando é desconectado e retoma com `Last-Event-ID`, sem perder eventos.
     */
    get: operations['acompanharEventosReceptor'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/sandbox/receptor/{token}/modo': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /**
     * Mudar o status de resposta do receptor
     * @description Sem Bearer: protegido apenas pelo token do caminho. Use para provocar falhas e ver as novas tentativas.
     */
    put: operations['definirStatusReceptor'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/sandbox/receptor/eventos': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /** Apagar os eventos recebidos */
    delete: operations['apagarEventosReceptor'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/webhooks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Consultar o webhook
     * @description Nunca traz o segredo. `saude` mostra como o seu endpoint tem respondido às entregas: falhas seguidas, se está contido (uma tentativa por vez), o último sucesso, a última falha com o motivo, e as entregas pendentes e com falha.
     */
    get: operations['consultarWebhook'];
    /**
     * Registrar ou atualizar o webhook
     * @description Um webhook por canal. Criação: 201 com `segredo` (mostrado uma única vez). Atualização: 200, sem `segredo` (o segredo não muda).
     */
    put: operations['registrarWebhook'];
    post?: never;
    /**
     * Remover o webhook
     * @description Remove o webhook e suas entregas pendentes (o histórico de entregues e falhas permanece). 204 sem corpo.
     */
    delete: operations['removerWebhook'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/webhooks/entregas': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Histórico de entregas
     * @description Entregas mais recentes primeiro (na ordem em que os eventos foram registrados), com a última tentativa de cada uma. Páginas por cursor: passe o `proximoCursor` da resposta para a página seguinte (mais antiga); com cursor, use os mesmos filtros da primeira página. Como em `GET /v1/eventos`, o cursor é estável enquanto entregas novas chegam. Os filtros valem juntos.
     */
    get: operations['listarEntregas'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/webhooks/entregas/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Consultar uma entrega e suas tentativas
     * @description A entrega com cada tentativa: número na série (`numero`) e em todo o histórico (`ordem`), série (`reenvio`), quando, status HTTP, latência, erro e o começo (até 4 KiB) do corpo que o seu endpoint respondeu. O corpo é guardado cortado e marcado como tal, e nunca vai para os logs. Entrega de outro canal: 404.
     */
    get: operations['consultarEntrega'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/webhooks/entregas/{id}/reenviar': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Reenviar uma entrega
     * @description Para entregas FALHOU ou ENTREGUE: zera as tentativas, envia na hora e responde 200 com a entrega após essa tentativa. É uma nova série: `tentativas` e `X-Service-Delivery-Attempt` recomeçam em 1, e `tentativasTotais` segue somando. Entrega PENDENTE: 409 `entrega_pendente`.
     */
    post: operations['reenviarEntrega'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/webhooks/entregas/reenviar': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Reenfileirar as entregas que falharam
     * @description Depois de um período fora do ar: todas as entregas `FALHOU` do canal (ou as de `desde`/`ate`, pela data do evento) voltam para a fila com as tentativas zeradas (uma nova série, como no reenvio de uma entrega), na ordem em que os eventos ocorreram, e seguem o agendamento normal (com o limite de requisições simultâneas ao seu endpoint). Responde quantas foram reenfileiradas. Repetir não envia de novo o que já está pendente. Trata centenas de milhares de entregas em lotes curtos, sem travar a API.
     */
    post: operations['reenfileirarEntregas'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/webhooks/retentativas/simular': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Simular retentativas rápidas do webhook (somente sandbox)
     * @description Faz as novas tentativas de entrega do webhook deste canal esperarem `intervaloSegundos` cada uma, em vez do agendamento padrão (60 s, 5 min, 30 min, 2 h, 6 h e 24 h): as sete tentativas e o status FALHOU acontecem em cerca de um minuto (com 5 s, 30 s), para testar o tratamento de uma entrega que falhou e a recuperação em lote (`POST /v1/webhooks/entregas/reenviar`). Vale para as próximas tentativas de todas as entregas do canal, inclusive as já pendentes (depois da espera já agendada) e o reenvio manual. `{"intervaloSegundos": null}` volta ao agendamento padrão. Fica guardado com o webhook: removê-lo (`DELETE /v1/webhooks`) também volta ao padrão. Responde com as esperas em vigor. Em REAL: 404.
     */
    post: operations['simularRetentativas'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/webhooks/segredo': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Rotacionar o segredo
     * @description Gera um novo segredo (mostrado uma única vez). O anterior continua válido por 24 horas: nesse período as assinaturas trazem dois `v1`. Rotacionar de novo dentro da janela mantém apenas o segredo anterior mais recente.
     */
    post: operations['rotacionarSegredo'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/webhooks/teste': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Enviar evento de teste
     * @description Envia agora um `webhook.teste` assinado (corpo: `id`, `tipo`, `ocorridoEm`, `ambiente`, `mensagem`), fora da fila e sem novas tentativas. 200 mesmo quando o endpoint do canal responde com erro.
     */
    post: operations['enviarEventoTeste'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: never;
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  verificarVida: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            status: string;
          };
        };
      };
    };
  };
  verificarProntidao: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Pronto: o banco de dados responde. */
      200: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            status: string;
          };
        };
      };
      /** @description Banco de dados indisponível. */
      503: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "db_unavailable",
           *       "message": "Banco de dados indisponível no momento. Tente novamente em instantes.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'db_unavailable';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
    };
  };
  listarEventos: {
    parameters: {
      query?: {
        /**
         * @description Só eventos com `ocorridoEm` antes deste instante (exclusive).
         * @example 2026-11-22T14:03:23.123Z
         */
        ate?: string;
        /** @description `proximoCursor` da página anterior. */
        cursor?: string;
        /**
         * @description Só eventos com `ocorridoEm` a partir deste instante (inclusive).
         * @example 2026-11-22T14:03:23.123Z
         */
        desde?: string;
        /** @description `true`: só eventos já entregues ao webhook; `false`: ainda não entregues (ou sem webhook). */
        entregue?: boolean;
        /** @description De 1 a 100; padrão 20. */
        limite?: number;
        /** @description Só eventos deste link. */
        linkId?: string;
        /** @description Só eventos deste tipo. */
        tipo?:
          | 'proposta.criada'
          | 'proposta.aguardando_formalizacao'
          | 'proposta.formalizada'
          | 'proposta.aprovada'
          | 'proposta.recusada'
          | 'proposta.cancelada'
          | 'proposta.falha';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Uma página de eventos, do mais recente ao mais antigo. */
      200: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            eventos: {
              /** @enum {string} */
              ambiente: 'SANDBOX' | 'REAL';
              /**
               * Format: uuid
               * @description Igual a `X-Service-Event-Id` e `webhook-id` da entrega.
               */
              id: string;
              link: {
                /** Format: uuid */
                id: string;
                referenciaExterna: string | null;
              };
              /** @description Somente em `proposta.falha`. */
              motivo?: string;
              /**
               * Format: date-time
               * @example 2026-11-22T14:03:23.123Z
               */
              ocorridoEm: string;
              /** @description Em `proposta.falha` ainda não há proposta: só `valor`, `parcelas` e `valorParcela`. */
              proposta: {
                numero?: number;
                parcelas: number;
                status?: string;
                valor: number;
                valorParcela: number;
              };
              /** @enum {string} */
              tipo:
                | 'proposta.criada'
                | 'proposta.aguardando_formalizacao'
                | 'proposta.formalizada'
                | 'proposta.aprovada'
                | 'proposta.recusada'
                | 'proposta.cancelada'
                | 'proposta.falha';
            }[];
            /** @description Ausente na última página. */
            proximoCursor?: string;
          };
        };
      };
      /** @description Parâmetro inválido (o `code` diz qual) ou `desde` que não é anterior a `ate`. */
      400: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "cursor_invalido",
           *       "message": "Cursor inválido: use o proximoCursor devolvido pela página anterior.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code:
              | 'cursor_invalido'
              | 'limite_invalido'
              | 'tipo_invalido'
              | 'link_id_invalido'
              | 'desde_invalido'
              | 'ate_invalido'
              | 'periodo_invalido'
              | 'entregue_invalido';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Token ausente, inválido ou expirado. */
      401: {
        headers: {
          /** @description Desafio Bearer: `Bearer realm="consigna", error="invalid_token", error_description="..."`. */
          'WWW-Authenticate'?: string;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "unauthorized",
           *       "message": "Token de acesso ausente, inválido ou expirado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'unauthorized';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Canal inativo ou IP fora da lista de IPs permitidos do canal. */
      403: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "forbidden",
           *       "message": "Canal inativo ou endereço IP não autorizado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'forbidden';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Corpo acima do limite (64 KB). */
      413: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "corpo_muito_grande",
           *       "message": "Corpo da requisição acima do limite permitido.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'corpo_muito_grande';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Limite de requisições do canal excedido. */
      429: {
        headers: {
          'RateLimit-Limit'?: number;
          'RateLimit-Remaining'?: number;
          'RateLimit-Reset'?: number;
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "limite_excedido",
           *       "message": "Limite de requisições excedido. Aguarde e tente novamente.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'limite_excedido';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Erro inesperado; a resposta nunca traz detalhes internos. */
      500: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "erro_interno",
           *       "message": "Erro interno. Tente novamente; se persistir, informe o requestId ao suporte.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'erro_interno';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Banco de dados indisponível; repita em instantes. */
      503: {
        headers: {
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "db_unavailable",
           *       "message": "Banco de dados indisponível no momento. Tente novamente em instantes.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'db_unavailable';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
    };
  };
  consultarEvento: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id do evento. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description O corpo do evento, exatamente os bytes assinados. */
      200: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            ambiente: 'SANDBOX' | 'REAL';
            /**
             * Format: uuid
             * @description Igual a `X-Service-Event-Id` e `webhook-id` da entrega.
             */
            id: string;
            link: {
              /** Format: uuid */
              id: string;
              referenciaExterna: string | null;
            };
            /** @description Somente em `proposta.falha`. */
            motivo?: string;
            /**
             * Format: date-time
             * @example 2026-11-22T14:03:23.123Z
             */
            ocorridoEm: string;
            /** @description Em `proposta.falha` ainda não há proposta: só `valor`, `parcelas` e `valorParcela`. */
            proposta: {
              numero?: number;
              parcelas: number;
              status?: string;
              valor: number;
              valorParcela: number;
            };
            /** @enum {string} */
            tipo:
              | 'proposta.criada'
              | 'proposta.aguardando_formalizacao'
              | 'proposta.formalizada'
              | 'proposta.aprovada'
              | 'proposta.recusada'
              | 'proposta.cancelada'
              | 'proposta.falha';
          };
        };
      };
      /** @description Corpo malformado (JSON inválido, tipo de conteúdo não suportado). */
      400: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "requisicao_invalida",
           *       "message": "Requisição inválida.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'requisicao_invalida';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Token ausente, inválido ou expirado. */
      401: {
        headers: {
          /** @description Desafio Bearer: `Bearer realm="consigna", error="invalid_token", error_description="..."`. */
          'WWW-Authenticate'?: string;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "unauthorized",
           *       "message": "Token de acesso ausente, inválido ou expirado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'unauthorized';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Canal inativo ou IP fora da lista de IPs permitidos do canal. */
      403: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "forbidden",
           *       "message": "Canal inativo ou endereço IP não autorizado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'forbidden';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Evento inexistente, de outro canal, ou id que não é uuid. */
      404: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "nao_encontrado",
           *       "message": "Recurso não encontrado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'nao_encontrado';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Corpo acima do limite (64 KB). */
      413: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "corpo_muito_grande",
           *       "message": "Corpo da requisição acima do limite permitido.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'corpo_muito_grande';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Limite de requisições do canal excedido. */
      429: {
        headers: {
          'RateLimit-Limit'?: number;
          'RateLimit-Remaining'?: number;
          'RateLimit-Reset'?: number;
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "limite_excedido",
           *       "message": "Limite de requisições excedido. Aguarde e tente novamente.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'limite_excedido';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Erro inesperado; a resposta nunca traz detalhes internos. */
      500: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "erro_interno",
           *       "message": "Erro interno. Tente novamente; se persistir, informe o requestId ao suporte.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'erro_interno';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Banco de dados indisponível; repita em instantes. */
      503: {
        headers: {
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "db_unavailable",
           *       "message": "Banco de dados indisponível no momento. Tente novamente em instantes.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'db_unavailable';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
    };
  };
  listarLinks: {
    parameters: {
      query?: {
        /**
         * @description Só links com `criadoEm` antes deste instante (exclusive).
         * @example 2026-11-22T14:03:23.123Z
         */
        ate?: string;
        /** @description `proximoCursor` da página anterior. */
        cursor?: string;
        /**
         * @description Só links com `criadoEm` a partir deste instante (inclusive).
         * @example 2026-11-22T14:03:23.123Z
         */
        desde?: string;
        /** @description De 1 a 100; padrão 20. */
        limite?: number;
        /** @description Só links cuja proposta está neste status. */
        propostaStatus?: 'CRIADA' | 'AGUARDANDO_FORMALIZACAO' | 'FORMALIZADA' | 'APROVADA' | 'RECUSADA' | 'CANCELADA';
        /**
         * @description Só links com esta referência, exatamente como foi gravada (sem espaços nas pontas).
         * @example promotor-42
         */
        referenciaExterna?: string;
        /** @description Só links neste status, como a consulta o mostra (um link vivo cujo `expiraEm` passou é `EXPIRADO`). */
        status?: 'CRIADO' | 'ABERTO' | 'EM_ANDAMENTO' | 'CONCLUIDO' | 'CANCELADO' | 'EXPIRADO';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Uma página de links, do mais recente ao mais antigo. */
      200: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            links: {
              /**
               * Format: date-time
               * @description Primeira abertura da URL pelo cliente.
               * @example 2026-11-22T14:03:23.123Z
               */
              abertoEm?: string;
              /** @enum {string} */
              ambiente: 'SANDBOX' | 'REAL';
              /** @description Presente quando o cliente autorizou a consulta dos dados de vínculo e margem. O IP e o navegador ficam guardados como evidência, selados, e nunca aparecem aqui: a operação os exporta quando necessário. */
              consentimento?: {
                /**
                 * Format: date-time
                 * @description Quando o cliente autorizou a consulta ao banco (antes da consulta).
                 * @example 2026-11-22T14:03:23.123Z
                 */
                concedidoEm: string;
                /** @description A versão do termo de autorização que o cliente aceitou. */
                versao: string;
              };
              /**
               * @description Somente os seis dígitos do meio.
               * @example ***.456.789-**
               */
              cpfMascarado: string;
              /**
               * Format: date-time
               * @example 2026-11-22T14:03:23.123Z
               */
              criadoEm: string;
              /**
               * Format: date-time
               * @description Quando os dados pessoais do cliente (CPF completo, celular, nome, nascimento, e-mail, chave Pix, link de assinatura) e o que deriva do CPF (as ofertas exibidas, o registro da Idempotency-Key) foram apagados, um prazo depois de o link terminar (LGPD). Ficam o CPF mascarado, os status e a proposta.
               * @example 2026-11-22T14:03:23.123Z
               */
              dadosPessoaisRemovidosEm?: string;
              /**
               * Format: date-time
               * @description criadoEm + 7 dias.
               * @example 2026-11-22T14:03:23.123Z
               */
              expiraEm: string;
              /** Format: uuid */
              id: string;
              /** @description Presente quando o cliente já enviou a proposta. */
              proposta?: {
                /**
                 * Format: date-time
                 * @example 2026-11-22T14:03:23.123Z
                 */
                criadaEm: string;
                numero: number;
                /** @enum {string} */
                status: 'CRIADA' | 'AGUARDANDO_FORMALIZACAO' | 'FORMALIZADA' | 'APROVADA' | 'RECUSADA' | 'CANCELADA';
              };
              /** @description Referência do canal (até 100 caracteres). */
              referenciaExterna?: string;
              /**
               * @description CRIADO → ABERTO (cliente abriu a URL) → EM_ANDAMENTO (celular confirmado) → CONCLUIDO (proposta criada no banco). CANCELADO quando a jornada termina sem proposta possível; EXPIRADO assim que `expiraEm` passa. Finais: CONCLUIDO, CANCELADO, EXPIRADO.
               * @enum {string}
               */
              status: 'CRIADO' | 'ABERTO' | 'EM_ANDAMENTO' | 'CONCLUIDO' | 'CANCELADO' | 'EXPIRADO';
              /** @description Para onde as páginas finais levam o cliente ("Voltar para <canal>"), quando o canal informou. */
              urlRetorno?: string;
            }[];
            /** @description Ausente na última página. */
            proximoCursor?: string;
          };
        };
      };
      /** @description Parâmetro inválido (o `code` diz qual), `desde` que não é anterior a `ate`, ou cursor que não veio de uma página deste canal. */
      400: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "cursor_invalido",
           *       "message": "Cursor inválido: use o proximoCursor devolvido pela página anterior.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code:
              | 'cursor_invalido'
              | 'limite_invalido'
              | 'status_invalido'
              | 'proposta_status_invalido'
              | 'referencia_externa_invalida'
              | 'desde_invalido'
              | 'ate_invalido'
              | 'periodo_invalido';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Token ausente, inválido ou expirado. */
      401: {
        headers: {
          /** @description Desafio Bearer: `Bearer realm="consigna", error="invalid_token", error_description="..."`. */
          'WWW-Authenticate'?: string;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "unauthorized",
           *       "message": "Token de acesso ausente, inválido ou expirado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'unauthorized';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Canal inativo ou IP fora da lista de IPs permitidos do canal. */
      403: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "forbidden",
           *       "message": "Canal inativo ou endereço IP não autorizado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'forbidden';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Corpo acima do limite (64 KB). */
      413: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "corpo_muito_grande",
           *       "message": "Corpo da requisição acima do limite permitido.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'corpo_muito_grande';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Limite de requisições do canal excedido. */
      429: {
        headers: {
          'RateLimit-Limit'?: number;
          'RateLimit-Remaining'?: number;
          'RateLimit-Reset'?: number;
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "limite_excedido",
           *       "message": "Limite de requisições excedido. Aguarde e tente novamente.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'limite_excedido';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Erro inesperado; a resposta nunca traz detalhes internos. */
      500: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "erro_interno",
           *       "message": "Erro interno. Tente novamente; se persistir, informe o requestId ao suporte.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'erro_interno';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Banco de dados indisponível; repita em instantes. */
      503: {
        headers: {
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "db_unavailable",
           *       "message": "Banco de dados indisponível no momento. Tente novamente em instantes.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'db_unavailable';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
    };
  };
  criarLink: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Opcional. 8 a 100 caracteres: letras, dígitos e `_ . : -`. Guardada por 24 h por canal: a mesma chave com os mesmos `cpf`, `referenciaExterna` e `urlRetorno` devolve 200 com o mesmo corpo (inclusive `url`); com outros dados, 409 `idempotency_key_conflito`. Sem o cabeçalho, o serviço gera uma chave UUID e cada chamada cria um link. Falhas (400, 503) não guardam nada: repita com a mesma chave.
         * @example pedido-2026-000123
         */
        'idempotency-key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /**
           * @description DDD válido + 9 + 8 dígitos; sugerido ao cliente para o SMS.
           * @example 11987654321
           */
          celular?: string;
          /**
           * @description 11 dígitos, somente números, com dígitos verificadores válidos.
           * @example 12345678909
           */
          cpf: string;
          /**
           * @description Referência do canal (ex.: id do promotor); até 100 caracteres, sem espaços nas pontas. Recusados (400 `requisicao_invalida`): caracteres de controle (U+0000–U+001F, U+007F–U+009F), U+2028, U+2029, controles de direção de texto (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069) e UTF-16 malformado (substituto isolado).
           * @example promotor-42
           */
          referenciaExterna?: string;
          /**
           * @description Opcional. Para onde levar o cliente no fim: toda página final (proposta criada, inelegível, sem oferta, link expirado ou encerrado) mostra "Voltar para <canal>" com este endereço. https, sem usuário e senha, até 2.048 caracteres, sem espaços nem caracteres de controle (400 `url_retorno_invalida`). Faz parte da Idempotency-Key: outra `urlRetorno` com a mesma chave é 409 `idempotency_key_conflito`.
           * @example https://app.fintech.example/consignado/concluido
           */
          urlRetorno?: string;
        };
      };
    };
    responses: {
      /** @description Repetição idempotente: o mesmo corpo da criação, `url` incluída. */
      200: {
        headers: {
          'Cache-Control'?: 'no-store';
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": "01936b9e-4c7a-7d1e-9a3f-5b2c8d7e6f10",
           *       "url": "https://sandbox.consigna.dev/c/Qm9sYSBkZSBuZXZlIGUgdW1hIHVybCBzZWNyZXRh",
           *       "status": "CRIADO",
           *       "ambiente": "SANDBOX",
           *       "cpfMascarado": "***.456.789-**",
           *       "referenciaExterna": "promotor-42",
           *       "expiraEm": "2026-11-29T14:03:23.123Z",
           *       "criadoEm": "2026-11-22T14:03:23.123Z"
           *     }
           */
          'application/json': {
            /** @enum {string} */
            ambiente: 'SANDBOX' | 'REAL';
            /**
             * @description Somente os seis dígitos do meio.
             * @example ***.456.789-**
             */
            cpfMascarado: string;
            /**
             * Format: date-time
             * @example 2026-11-22T14:03:23.123Z
             */
            criadoEm: string;
            /**
             * Format: date-time
             * @description criadoEm + 7 dias.
             * @example 2026-11-22T14:03:23.123Z
             */
            expiraEm: string;
            /** Format: uuid */
            id: string;
            /** @description Referência do canal (até 100 caracteres). */
            referenciaExterna?: string;
            /**
             * @description CRIADO → ABERTO (cliente abriu a URL) → EM_ANDAMENTO (celular confirmado) → CONCLUIDO (proposta criada no banco). CANCELADO quando a jornada termina sem proposta possível; EXPIRADO assim que `expiraEm` passa. Finais: CONCLUIDO, CANCELADO, EXPIRADO.
             * @enum {string}
             */
            status: 'CRIADO' | 'ABERTO' | 'EM_ANDAMENTO' | 'CONCLUIDO' | 'CANCELADO' | 'EXPIRADO';
            /**
             * Format: uri
             * @description URL de uso único do cliente: envie somente a ele e nunca a registre em logs. Só aparece na criação e na repetição idempotente.
             */
            url: string;
            /** @description Para onde as páginas finais levam o cliente ("Voltar para <canal>"), quando o canal informou. */
            urlRetorno?: string;
          };
        };
      };
      /** @description Link criado (com `url`). */
      201: {
        headers: {
          'Cache-Control'?: 'no-store';
          /** @description /v1/links/{id} */
          Location?: string;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": "01936b9e-4c7a-7d1e-9a3f-5b2c8d7e6f10",
           *       "url": "https://sandbox.consigna.dev/c/Qm9sYSBkZSBuZXZlIGUgdW1hIHVybCBzZWNyZXRh",
           *       "status": "CRIADO",
           *       "ambiente": "SANDBOX",
           *       "cpfMascarado": "***.456.789-**",
           *       "referenciaExterna": "promotor-42",
           *       "expiraEm": "2026-11-29T14:03:23.123Z",
           *       "criadoEm": "2026-11-22T14:03:23.123Z"
           *     }
           */
          'application/json': {
            /** @enum {string} */
            ambiente: 'SANDBOX' | 'REAL';
            /**
             * @description Somente os seis dígitos do meio.
             * @example ***.456.789-**
             */
            cpfMascarado: string;
            /**
             * Format: date-time
             * @example 2026-11-22T14:03:23.123Z
             */
            criadoEm: string;
            /**
             * Format: date-time
             * @description criadoEm + 7 dias.
             * @example 2026-11-22T14:03:23.123Z
             */
            expiraEm: string;
            /** Format: uuid */
            id: string;
            /** @description Referência do canal (até 100 caracteres). */
            referenciaExterna?: string;
            /**
             * @description CRIADO → ABERTO (cliente abriu a URL) → EM_ANDAMENTO (celular confirmado) → CONCLUIDO (proposta criada no banco). CANCELADO quando a jornada termina sem proposta possível; EXPIRADO assim que `expiraEm` passa. Finais: CONCLUIDO, CANCELADO, EXPIRADO.
             * @enum {string}
             */
            status: 'CRIADO' | 'ABERTO' | 'EM_ANDAMENTO' | 'CONCLUIDO' | 'CANCELADO' | 'EXPIRADO';
            /**
             * Format: uri
             * @description URL de uso único do cliente: envie somente a ele e nunca a registre em logs. Só aparece na criação e na repetição idempotente.
             */
            url: string;
            /** @description Para onde as páginas finais levam o cliente ("Voltar para <canal>"), quando o canal informou. */
            urlRetorno?: string;
          };
        };
      };
      /** @description Campo inválido: cada campo tem seu código. Campo desconhecido, tipo errado ou corpo que não é JSON: `requisicao_invalida`. */
      400: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "cpf_invalido",
           *       "message": "CPF inválido: informe 11 dígitos, somente números, com dígitos verificadores válidos.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'cpf_invalido' | 'celular_invalido' | 'idempotency_key_invalida' | 'requisicao_invalida';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Token ausente, inválido ou expirado. */
      401: {
        headers: {
          /** @description Desafio Bearer: `Bearer realm="consigna", error="invalid_token", error_description="..."`. */
          'WWW-Authenticate'?: string;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "unauthorized",
           *       "message": "Token de acesso ausente, inválido ou expirado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'unauthorized';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Canal inativo ou IP fora da lista de IPs permitidos do canal. */
      403: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "forbidden",
           *       "message": "Canal inativo ou endereço IP não autorizado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'forbidden';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description `idempotency_key_conflito`: a chave já foi usada com outro `cpf` ou `referenciaExterna`. `idempotency_key_em_uso`: a primeira chamada com a chave ainda não terminou; repita. */
      409: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "idempotency_key_conflito",
           *       "message": "Requisição inválida.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'idempotency_key_conflito' | 'idempotency_key_em_uso';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Corpo acima do limite (64 KB). */
      413: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "corpo_muito_grande",
           *       "message": "Corpo da requisição acima do limite permitido.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'corpo_muito_grande';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Limite de requisições do canal excedido. */
      429: {
        headers: {
          'RateLimit-Limit'?: number;
          'RateLimit-Remaining'?: number;
          'RateLimit-Reset'?: number;
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "limite_excedido",
           *       "message": "Limite de requisições excedido. Aguarde e tente novamente.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'limite_excedido';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Erro inesperado; a resposta nunca traz detalhes internos. */
      500: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "erro_interno",
           *       "message": "Erro interno. Tente novamente; se persistir, informe o requestId ao suporte.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'erro_interno';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Banco parceiro (ou banco de dados) indisponível: nada foi criado; repita com a mesma Idempotency-Key após `Retry-After` segundos. */
      503: {
        headers: {
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "banco_indisponivel",
           *       "message": "Requisição inválida.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'banco_indisponivel' | 'db_unavailable';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
    };
  };
  consultarLink: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id do link. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description O link, sem `url`, com `abertoEm` e `proposta` quando existirem. */
      200: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": "01936b9e-4c7a-7d1e-9a3f-5b2c8d7e6f10",
           *       "status": "CONCLUIDO",
           *       "ambiente": "SANDBOX",
           *       "cpfMascarado": "***.456.789-**",
           *       "referenciaExterna": "promotor-42",
           *       "expiraEm": "2026-11-29T14:03:23.123Z",
           *       "criadoEm": "2026-11-22T14:03:23.123Z",
           *       "abertoEm": "2026-11-22T14:10:02.481Z",
           *       "proposta": {
           *         "numero": 100042,
           *         "status": "AGUARDANDO_FORMALIZACAO",
           *         "criadaEm": "2026-11-22T14:16:40.007Z"
           *       }
           *     }
           */
          'application/json': {
            /**
             * Format: date-time
             * @description Primeira abertura da URL pelo cliente.
             * @example 2026-11-22T14:03:23.123Z
             */
            abertoEm?: string;
            /** @enum {string} */
            ambiente: 'SANDBOX' | 'REAL';
            /** @description Presente quando o cliente autorizou a consulta dos dados de vínculo e margem. O IP e o navegador ficam guardados como evidência, selados, e nunca aparecem aqui: a operação os exporta quando necessário. */
            consentimento?: {
              /**
               * Format: date-time
               * @description Quando o cliente autorizou a consulta ao banco (antes da consulta).
               * @example 2026-11-22T14:03:23.123Z
               */
              concedidoEm: string;
              /** @description A versão do termo de autorização que o cliente aceitou. */
              versao: string;
            };
            /**
             * @description Somente os seis dígitos do meio.
             * @example ***.456.789-**
             */
            cpfMascarado: string;
            /**
             * Format: date-time
             * @example 2026-11-22T14:03:23.123Z
             */
            criadoEm: string;
            /**
             * Format: date-time
             * @description Quando os dados pessoais do cliente (CPF completo, celular, nome, nascimento, e-mail, chave Pix, link de assinatura) e o que deriva do CPF (as ofertas exibidas, o registro da Idempotency-Key) foram apagados, um prazo depois de o link terminar (LGPD). Ficam o CPF mascarado, os status e a proposta.
             * @example 2026-11-22T14:03:23.123Z
             */
            dadosPessoaisRemovidosEm?: string;
            /**
             * Format: date-time
             * @description criadoEm + 7 dias.
             * @example 2026-11-22T14:03:23.123Z
             */
            expiraEm: string;
            /** Format: uuid */
            id: string;
            /** @description Presente quando o cliente já enviou a proposta. */
            proposta?: {
              /**
               * Format: date-time
               * @example 2026-11-22T14:03:23.123Z
               */
              criadaEm: string;
              numero: number;
              /** @enum {string} */
              status: 'CRIADA' | 'AGUARDANDO_FORMALIZACAO' | 'FORMALIZADA' | 'APROVADA' | 'RECUSADA' | 'CANCELADA';
            };
            /** @description Referência do canal (até 100 caracteres). */
            referenciaExterna?: string;
            /**
             * @description CRIADO → ABERTO (cliente abriu a URL) → EM_ANDAMENTO (celular confirmado) → CONCLUIDO (proposta criada no banco). CANCELADO quando a jornada termina sem proposta possível; EXPIRADO assim que `expiraEm` passa. Finais: CONCLUIDO, CANCELADO, EXPIRADO.
             * @enum {string}
             */
            status: 'CRIADO' | 'ABERTO' | 'EM_ANDAMENTO' | 'CONCLUIDO' | 'CANCELADO' | 'EXPIRADO';
            /** @description Para onde as páginas finais levam o cliente ("Voltar para <canal>"), quando o canal informou. */
            urlRetorno?: string;
          };
        };
      };
      /** @description Corpo malformado (JSON inválido, tipo de conteúdo não suportado). */
      400: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "requisicao_invalida",
           *       "message": "Requisição inválida.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'requisicao_invalida';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Token ausente, inválido ou expirado. */
      401: {
        headers: {
          /** @description Desafio Bearer: `Bearer realm="consigna", error="invalid_token", error_description="..."`. */
          'WWW-Authenticate'?: string;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "unauthorized",
           *       "message": "Token de acesso ausente, inválido ou expirado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'unauthorized';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Canal inativo ou IP fora da lista de IPs permitidos do canal. */
      403: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "forbidden",
           *       "message": "Canal inativo ou endereço IP não autorizado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'forbidden';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Link inexistente, de outro canal, ou id que não é uuid. */
      404: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "nao_encontrado",
           *       "message": "Recurso não encontrado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'nao_encontrado';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Corpo acima do limite (64 KB). */
      413: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "corpo_muito_grande",
           *       "message": "Corpo da requisição acima do limite permitido.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'corpo_muito_grande';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Limite de requisições do canal excedido. */
      429: {
        headers: {
          'RateLimit-Limit'?: number;
          'RateLimit-Remaining'?: number;
          'RateLimit-Reset'?: number;
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "limite_excedido",
           *       "message": "Limite de requisições excedido. Aguarde e tente novamente.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'limite_excedido';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Erro inesperado; a resposta nunca traz detalhes internos. */
      500: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "erro_interno",
           *       "message": "Erro interno. Tente novamente; se persistir, informe o requestId ao suporte.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'erro_interno';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Banco de dados indisponível; repita em instantes. */
      503: {
        headers: {
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "db_unavailable",
           *       "message": "Banco de dados indisponível no momento. Tente novamente em instantes.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'db_unavailable';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
    };
  };
  simularExpiracao: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id do link. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description O link expirado. */
      200: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": "01936b9e-4c7a-7d1e-9a3f-5b2c8d7e6f10",
           *       "status": "CONCLUIDO",
           *       "ambiente": "SANDBOX",
           *       "cpfMascarado": "***.456.789-**",
           *       "referenciaExterna": "promotor-42",
           *       "expiraEm": "2026-11-29T14:03:23.123Z",
           *       "criadoEm": "2026-11-22T14:03:23.123Z",
           *       "abertoEm": "2026-11-22T14:10:02.481Z",
           *       "proposta": {
           *         "numero": 100042,
           *         "status": "AGUARDANDO_FORMALIZACAO",
           *         "criadaEm": "2026-11-22T14:16:40.007Z"
           *       }
           *     }
           */
          'application/json': {
            /**
             * Format: date-time
             * @description Primeira abertura da URL pelo cliente.
             * @example 2026-11-22T14:03:23.123Z
             */
            abertoEm?: string;
            /** @enum {string} */
            ambiente: 'SANDBOX' | 'REAL';
            /** @description Presente quando o cliente autorizou a consulta dos dados de vínculo e margem. O IP e o navegador ficam guardados como evidência, selados, e nunca aparecem aqui: a operação os exporta quando necessário. */
            consentimento?: {
              /**
               * Format: date-time
               * @description Quando o cliente autorizou a consulta ao banco (antes da consulta).
               * @example 2026-11-22T14:03:23.123Z
               */
              concedidoEm: string;
              /** @description A versão do termo de autorização que o cliente aceitou. */
              versao: string;
            };
            /**
             * @description Somente os seis dígitos do meio.
             * @example ***.456.789-**
             */
            cpfMascarado: string;
            /**
             * Format: date-time
             * @example 2026-11-22T14:03:23.123Z
             */
            criadoEm: string;
            /**
             * Format: date-time
             * @description Quando os dados pessoais do cliente (CPF completo, celular, nome, nascimento, e-mail, chave Pix, link de assinatura) e o que deriva do CPF (as ofertas exibidas, o registro da Idempotency-Key) foram apagados, um prazo depois de o link terminar (LGPD). Ficam o CPF mascarado, os status e a proposta.
             * @example 2026-11-22T14:03:23.123Z
             */
            dadosPessoaisRemovidosEm?: string;
            /**
             * Format: date-time
             * @description criadoEm + 7 dias.
             * @example 2026-11-22T14:03:23.123Z
             */
            expiraEm: string;
            /** Format: uuid */
            id: string;
            /** @description Presente quando o cliente já enviou a proposta. */
            proposta?: {
              /**
               * Format: date-time
               * @example 2026-11-22T14:03:23.123Z
               */
              criadaEm: string;
              numero: number;
              /** @enum {string} */
              status: 'CRIADA' | 'AGUARDANDO_FORMALIZACAO' | 'FORMALIZADA' | 'APROVADA' | 'RECUSADA' | 'CANCELADA';
            };
            /** @description Referência do canal (até 100 caracteres). */
            referenciaExterna?: string;
            /**
             * @description CRIADO → ABERTO (cliente abriu a URL) → EM_ANDAMENTO (celular confirmado) → CONCLUIDO (proposta criada no banco). CANCELADO quando a jornada termina sem proposta possível; EXPIRADO assim que `expiraEm` passa. Finais: CONCLUIDO, CANCELADO, EXPIRADO.
             * @enum {string}
             */
            status: 'CRIADO' | 'ABERTO' | 'EM_ANDAMENTO' | 'CONCLUIDO' | 'CANCELADO' | 'EXPIRADO';
            /** @description Para onde as páginas finais levam o cliente ("Voltar para <canal>"), quando o canal informou. */
            urlRetorno?: string;
          };
        };
      };
      /** @description Corpo malformado (JSON inválido, tipo de conteúdo não suportado). */
      400: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "requisicao_invalida",
           *       "message": "Requisição inválida.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'requisicao_invalida';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Token ausente, inválido ou expirado. */
      401: {
        headers: {
          /** @description Desafio Bearer: `Bearer realm="consigna", error="invalid_token", error_description="..."`. */
          'WWW-Authenticate'?: string;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "unauthorized",
           *       "message": "Token de acesso ausente, inválido ou expirado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'unauthorized';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Canal inativo ou IP fora da lista de IPs permitidos do canal. */
      403: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "forbidden",
           *       "message": "Canal inativo ou endereço IP não autorizado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'forbidden';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Link inexistente, de outro canal, id que não é uuid, ou ambiente REAL. */
      404: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "nao_encontrado",
           *       "message": "Recurso não encontrado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'nao_encontrado';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description `link_expirado`: o link já expirou. `link_finalizado`: a jornada já terminou sem proposta (CANCELADO). `jornada_concluida`: a proposta já foi criada (CONCLUIDO). Nos três casos o link não expira mais. */
      409: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "link_expirado",
           *       "message": "Requisição inválida.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'link_expirado' | 'link_finalizado' | 'jornada_concluida';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Corpo acima do limite (64 KB). */
      413: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "corpo_muito_grande",
           *       "message": "Corpo da requisição acima do limite permitido.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'corpo_muito_grande';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Limite de requisições do canal excedido. */
      429: {
        headers: {
          'RateLimit-Limit'?: number;
          'RateLimit-Remaining'?: number;
          'RateLimit-Reset'?: number;
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "limite_excedido",
           *       "message": "Limite de requisições excedido. Aguarde e tente novamente.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'limite_excedido';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Erro inesperado; a resposta nunca traz detalhes internos. */
      500: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "erro_interno",
           *       "message": "Erro interno. Tente novamente; se persistir, informe o requestId ao suporte.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'erro_interno';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Banco de dados indisponível; repita em instantes. */
      503: {
        headers: {
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "db_unavailable",
           *       "message": "Banco de dados indisponível no momento. Tente novamente em instantes.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'db_unavailable';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
    };
  };
  simularJornada: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id do link. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description O link depois da jornada simulada, com `proposta` quando ela foi criada. */
      200: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": "01936b9e-4c7a-7d1e-9a3f-5b2c8d7e6f10",
           *       "status": "CONCLUIDO",
           *       "ambiente": "SANDBOX",
           *       "cpfMascarado": "***.456.789-**",
           *       "referenciaExterna": "promotor-42",
           *       "expiraEm": "2026-11-29T14:03:23.123Z",
           *       "criadoEm": "2026-11-22T14:03:23.123Z",
           *       "abertoEm": "2026-11-22T14:10:02.481Z",
           *       "proposta": {
           *         "numero": 100042,
           *         "status": "AGUARDANDO_FORMALIZACAO",
           *         "criadaEm": "2026-11-22T14:16:40.007Z"
           *       }
           *     }
           */
          'application/json': {
            /**
             * Format: date-time
             * @description Primeira abertura da URL pelo cliente.
             * @example 2026-11-22T14:03:23.123Z
             */
            abertoEm?: string;
            /** @enum {string} */
            ambiente: 'SANDBOX' | 'REAL';
            /** @description Presente quando o cliente autorizou a consulta dos dados de vínculo e margem. O IP e o navegador ficam guardados como evidência, selados, e nunca aparecem aqui: a operação os exporta quando necessário. */
            consentimento?: {
              /**
               * Format: date-time
               * @description Quando o cliente autorizou a consulta ao banco (antes da consulta).
               * @example 2026-11-22T14:03:23.123Z
               */
              concedidoEm: string;
              /** @description A versão do termo de autorização que o cliente aceitou. */
              versao: string;
            };
            /**
             * @description Somente os seis dígitos do meio.
             * @example ***.456.789-**
             */
            cpfMascarado: string;
            /**
             * Format: date-time
             * @example 2026-11-22T14:03:23.123Z
             */
            criadoEm: string;
            /**
             * Format: date-time
             * @description Quando os dados pessoais do cliente (CPF completo, celular, nome, nascimento, e-mail, chave Pix, link de assinatura) e o que deriva do CPF (as ofertas exibidas, o registro da Idempotency-Key) foram apagados, um prazo depois de o link terminar (LGPD). Ficam o CPF mascarado, os status e a proposta.
             * @example 2026-11-22T14:03:23.123Z
             */
            dadosPessoaisRemovidosEm?: string;
            /**
             * Format: date-time
             * @description criadoEm + 7 dias.
             * @example 2026-11-22T14:03:23.123Z
             */
            expiraEm: string;
            /** Format: uuid */
            id: string;
            /** @description Presente quando o cliente já enviou a proposta. */
            proposta?: {
              /**
               * Format: date-time
               * @example 2026-11-22T14:03:23.123Z
               */
              criadaEm: string;
              numero: number;
              /** @enum {string} */
              status: 'CRIADA' | 'AGUARDANDO_FORMALIZACAO' | 'FORMALIZADA' | 'APROVADA' | 'RECUSADA' | 'CANCELADA';
            };
            /** @description Referência do canal (até 100 caracteres). */
            referenciaExterna?: string;
            /**
             * @description CRIADO → ABERTO (cliente abriu a URL) → EM_ANDAMENTO (celular confirmado) → CONCLUIDO (proposta criada no banco). CANCELADO quando a jornada termina sem proposta possível; EXPIRADO assim que `expiraEm` passa. Finais: CONCLUIDO, CANCELADO, EXPIRADO.
             * @enum {string}
             */
            status: 'CRIADO' | 'ABERTO' | 'EM_ANDAMENTO' | 'CONCLUIDO' | 'CANCELADO' | 'EXPIRADO';
            /** @description Para onde as páginas finais levam o cliente ("Voltar para <canal>"), quando o canal informou. */
            urlRetorno?: string;
          };
        };
      };
      /** @description Corpo malformado (JSON inválido, tipo de conteúdo não suportado). */
      400: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "requisicao_invalida",
           *       "message": "Requisição inválida.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'requisicao_invalida';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Token ausente, inválido ou expirado. */
      401: {
        headers: {
          /** @description Desafio Bearer: `Bearer realm="consigna", error="invalid_token", error_description="..."`. */
          'WWW-Authenticate'?: string;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "unauthorized",
           *       "message": "Token de acesso ausente, inválido ou expirado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'unauthorized';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Canal inativo ou IP fora da lista de IPs permitidos do canal. */
      403: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "forbidden",
           *       "message": "Canal inativo ou endereço IP não autorizado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'forbidden';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Link inexistente, de outro canal, id que não é uuid, ou ambiente REAL. */
      404: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "nao_encontrado",
           *       "message": "Recurso não encontrado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'nao_encontrado';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description `link_expirado`: o link expirou. `link_finalizado`: a jornada já terminou sem proposta (CANCELADO). `jornada_concluida`: a proposta já foi criada; use `proposta/simular` para mudar o status dela. */
      409: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "link_expirado",
           *       "message": "Requisição inválida.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'link_expirado' | 'link_finalizado' | 'jornada_concluida';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Corpo acima do limite (64 KB). */
      413: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "corpo_muito_grande",
           *       "message": "Corpo da requisição acima do limite permitido.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'corpo_muito_grande';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Limite de requisições do canal excedido. */
      429: {
        headers: {
          'RateLimit-Limit'?: number;
          'RateLimit-Remaining'?: number;
          'RateLimit-Reset'?: number;
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "limite_excedido",
           *       "message": "Limite de requisições excedido. Aguarde e tente novamente.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'limite_excedido';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Erro inesperado; a resposta nunca traz detalhes internos. */
      500: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "erro_interno",
           *       "message": "Erro interno. Tente novamente; se persistir, informe o requestId ao suporte.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'erro_interno';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Banco de dados indisponível; repita em instantes. */
      503: {
        headers: {
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "db_unavailable",
           *       "message": "Banco de dados indisponível no momento. Tente novamente em instantes.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'db_unavailable';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
    };
  };
  simularProposta: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id do link. */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "status": "FORMALIZADA"
         *     }
         */
        'application/json': {
          /**
           * @description FORMALIZADA (de CRIADA ou AGUARDANDO_FORMALIZACAO), APROVADA (somente de FORMALIZADA), RECUSADA ou CANCELADA (de qualquer estado ativo).
           * @enum {string}
           */
          status: 'FORMALIZADA' | 'APROVADA' | 'RECUSADA' | 'CANCELADA';
        };
      };
    };
    responses: {
      /** @description Status da proposta depois da simulação; `alterado` é false quando ela já estava nesse status. */
      200: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "status": "FORMALIZADA",
           *       "alterado": true
           *     }
           */
          'application/json': {
            /** @description false quando a proposta já estava nesse status (nenhum evento é gerado). */
            alterado: boolean;
            /** @description Status da proposta após a operação. */
            status: string;
          };
        };
      };
      /** @description Status ausente ou fora de FORMALIZADA, APROVADA, RECUSADA, CANCELADA. */
      400: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "status_invalido",
           *       "message": "Status inválido.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'status_invalido' | 'requisicao_invalida';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Token ausente, inválido ou expirado. */
      401: {
        headers: {
          /** @description Desafio Bearer: `Bearer realm="consigna", error="invalid_token", error_description="..."`. */
          'WWW-Authenticate'?: string;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "unauthorized",
           *       "message": "Token de acesso ausente, inválido ou expirado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'unauthorized';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Canal inativo ou IP fora da lista de IPs permitidos do canal. */
      403: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "forbidden",
           *       "message": "Canal inativo ou endereço IP não autorizado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'forbidden';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Link inexistente, de outro canal, id que não é uuid, ou ambiente REAL. */
      404: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "nao_encontrado",
           *       "message": "Recurso não encontrado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'nao_encontrado';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description `sem_proposta`: o cliente ainda não enviou a proposta. `transicao_invalida`: o status voltaria ou sairia de um estado final. */
      409: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "sem_proposta",
           *       "message": "Requisição inválida.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'sem_proposta' | 'transicao_invalida';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Corpo acima do limite (64 KB). */
      413: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "corpo_muito_grande",
           *       "message": "Corpo da requisição acima do limite permitido.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'corpo_muito_grande';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Limite de requisições do canal excedido. */
      429: {
        headers: {
          'RateLimit-Limit'?: number;
          'RateLimit-Remaining'?: number;
          'RateLimit-Reset'?: number;
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "limite_excedido",
           *       "message": "Limite de requisições excedido. Aguarde e tente novamente.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'limite_excedido';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Erro inesperado; a resposta nunca traz detalhes internos. */
      500: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "erro_interno",
           *       "message": "Erro interno. Tente novamente; se persistir, informe o requestId ao suporte.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'erro_interno';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Banco de dados indisponível; repita em instantes. */
      503: {
        headers: {
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "db_unavailable",
           *       "message": "Banco de dados indisponível no momento. Tente novamente em instantes.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'db_unavailable';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
    };
  };
  consultarMarca: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A marca do canal. */
      200: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "nome": "Fintech Exemplo",
           *       "cor": "#1a73e8",
           *       "corAplicada": "#1a6dde",
           *       "logo": {
           *         "url": "https://sandbox.consigna.example/marca/logo/9f2c…",
           *         "tipo": "image/png",
           *         "largura": 120,
           *         "altura": 32,
           *         "bytes": 2841
           *       },
           *       "atualizadoEm": "2026-11-22T14:03:23.123Z"
           *     }
           */
          'application/json': {
            /**
             * Format: date-time
             * @example 2026-11-22T14:03:23.123Z
             */
            atualizadoEm: string;
            /** @description A cor enviada, `#rrggbb`. */
            cor?: string;
            /** @description A cor que as páginas usam: a enviada, ou ela escurecida (mesmo matiz) até o texto branco sobre ela e ela sobre fundo claro terem contraste de pelo menos 4,5:1 (WCAG 2.1 AA). Sem `cor`, a cor padrão. */
            corAplicada: string;
            logo?: {
              altura: number;
              bytes: number;
              largura: number;
              /** @enum {string} */
              tipo: 'image/png' | 'image/jpeg' | 'image/webp';
              /** @description Servido por nós (as páginas não carregam nada de fora). */
              url: string;
            };
            /** @description Como o cliente vê o canal: no topo de cada página e em "Oferecido por…". */
            nome: string;
          };
        };
      };
      /** @description Corpo malformado (JSON inválido, tipo de conteúdo não suportado). */
      400: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "requisicao_invalida",
           *       "message": "Requisição inválida.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'requisicao_invalida';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Token ausente, inválido ou expirado. */
      401: {
        headers: {
          /** @description Desafio Bearer: `Bearer realm="consigna", error="invalid_token", error_description="..."`. */
          'WWW-Authenticate'?: string;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "unauthorized",
           *       "message": "Token de acesso ausente, inválido ou expirado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'unauthorized';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Canal inativo ou IP fora da lista de IPs permitidos do canal. */
      403: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "forbidden",
           *       "message": "Canal inativo ou endereço IP não autorizado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'forbidden';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Nenhuma marca definida: as páginas usam o nome do canal. */
      404: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "nao_encontrado",
           *       "message": "Recurso não encontrado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'nao_encontrado';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Corpo acima do limite (64 KB). */
      413: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "corpo_muito_grande",
           *       "message": "Corpo da requisição acima do limite permitido.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'corpo_muito_grande';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Limite de requisições do canal excedido. */
      429: {
        headers: {
          'RateLimit-Limit'?: number;
          'RateLimit-Remaining'?: number;
          'RateLimit-Reset'?: number;
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "limite_excedido",
           *       "message": "Limite de requisições excedido. Aguarde e tente novamente.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'limite_excedido';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Erro inesperado; a resposta nunca traz detalhes internos. */
      500: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "erro_interno",
           *       "message": "Erro interno. Tente novamente; se persistir, informe o requestId ao suporte.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'erro_interno';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Banco de dados indisponível; repita em instantes. */
      503: {
        headers: {
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "db_unavailable",
           *       "message": "Banco de dados indisponível no momento. Tente novamente em instantes.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'db_unavailable';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
    };
  };
  definirMarca: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "nome": "Fintech Exemplo",
         *       "cor": "#1a73e8",
         *       "logo": "iVBORw0KGgoAAAANSUhEUgAA…"
         *     }
         */
        'application/json': {
          /** @description `#rrggbb`. Escurecida nas páginas se não for legível (veja `corAplicada`). */
          cor?: string;
          /** @description Os bytes de uma imagem PNG, JPEG ou WebP, em base64: até 16384 bytes (16 KB) e 1024×1024 pixels. O tipo é lido da imagem; SVG não é aceito. A imagem é lida até o último byte e decodificada por inteiro: `logo_invalido` (com o motivo) se tiver mais de um cabeçalho de imagem ou animação, tamanho declarado diferente do real, qualquer byte depois do fim da imagem, dados corrompidos, rotação EXIF, ou proporção fora de 1:4 a 8:1. Guardado como enviado. Aparece com 32 pixels de altura e no máximo 256 de largura. */
          logo?: string;
          /** @description De 1 a 60 caracteres, com ao menos uma letra ou um dígito visível (só espaços ou caracteres invisíveis, como U+2800 ou U+3164, não nomeiam ninguém), sem caracteres de controle. Sempre escapado nas páginas. */
          nome: string;
        };
      };
    };
    responses: {
      /** @description Marca substituída. */
      200: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "nome": "Fintech Exemplo",
           *       "cor": "#1a73e8",
           *       "corAplicada": "#1a6dde",
           *       "logo": {
           *         "url": "https://sandbox.consigna.example/marca/logo/9f2c…",
           *         "tipo": "image/png",
           *         "largura": 120,
           *         "altura": 32,
           *         "bytes": 2841
           *       },
           *       "atualizadoEm": "2026-11-22T14:03:23.123Z"
           *     }
           */
          'application/json': {
            /**
             * Format: date-time
             * @example 2026-11-22T14:03:23.123Z
             */
            atualizadoEm: string;
            /** @description A cor enviada, `#rrggbb`. */
            cor?: string;
            /** @description A cor que as páginas usam: a enviada, ou ela escurecida (mesmo matiz) até o texto branco sobre ela e ela sobre fundo claro terem contraste de pelo menos 4,5:1 (WCAG 2.1 AA). Sem `cor`, a cor padrão. */
            corAplicada: string;
            logo?: {
              altura: number;
              bytes: number;
              largura: number;
              /** @enum {string} */
              tipo: 'image/png' | 'image/jpeg' | 'image/webp';
              /** @description Servido por nós (as páginas não carregam nada de fora). */
              url: string;
            };
            /** @description Como o cliente vê o canal: no topo de cada página e em "Oferecido por…". */
            nome: string;
          };
        };
      };
      /** @description Marca criada. */
      201: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "nome": "Fintech Exemplo",
           *       "cor": "#1a73e8",
           *       "corAplicada": "#1a6dde",
           *       "logo": {
           *         "url": "https://sandbox.consigna.example/marca/logo/9f2c…",
           *         "tipo": "image/png",
           *         "largura": 120,
           *         "altura": 32,
           *         "bytes": 2841
           *       },
           *       "atualizadoEm": "2026-11-22T14:03:23.123Z"
           *     }
           */
          'application/json': {
            /**
             * Format: date-time
             * @example 2026-11-22T14:03:23.123Z
             */
            atualizadoEm: string;
            /** @description A cor enviada, `#rrggbb`. */
            cor?: string;
            /** @description A cor que as páginas usam: a enviada, ou ela escurecida (mesmo matiz) até o texto branco sobre ela e ela sobre fundo claro terem contraste de pelo menos 4,5:1 (WCAG 2.1 AA). Sem `cor`, a cor padrão. */
            corAplicada: string;
            logo?: {
              altura: number;
              bytes: number;
              largura: number;
              /** @enum {string} */
              tipo: 'image/png' | 'image/jpeg' | 'image/webp';
              /** @description Servido por nós (as páginas não carregam nada de fora). */
              url: string;
            };
            /** @description Como o cliente vê o canal: no topo de cada página e em "Oferecido por…". */
            nome: string;
          };
        };
      };
      /** @description Campo inválido (o `code` diz qual); nada foi gravado. */
      400: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "nome_invalido",
           *       "message": "nome inválido: de 1 a 60 caracteres, com ao menos uma letra ou um dígito visível, sem caracteres de controle, separadores de linha, controles de direção de texto ou UTF-16 malformado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'nome_invalido' | 'cor_invalida' | 'logo_invalido' | 'logo_muito_grande' | 'requisicao_invalida';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Token ausente, inválido ou expirado. */
      401: {
        headers: {
          /** @description Desafio Bearer: `Bearer realm="consigna", error="invalid_token", error_description="..."`. */
          'WWW-Authenticate'?: string;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "unauthorized",
           *       "message": "Token de acesso ausente, inválido ou expirado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'unauthorized';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Canal inativo ou IP fora da lista de IPs permitidos do canal. */
      403: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "forbidden",
           *       "message": "Canal inativo ou endereço IP não autorizado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'forbidden';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Corpo acima do limite (64 KB). */
      413: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "corpo_muito_grande",
           *       "message": "Corpo da requisição acima do limite permitido.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'corpo_muito_grande';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Limite de requisições do canal excedido. */
      429: {
        headers: {
          'RateLimit-Limit'?: number;
          'RateLimit-Remaining'?: number;
          'RateLimit-Reset'?: number;
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "limite_excedido",
           *       "message": "Limite de requisições excedido. Aguarde e tente novamente.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'limite_excedido';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Erro inesperado; a resposta nunca traz detalhes internos. */
      500: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "erro_interno",
           *       "message": "Erro interno. Tente novamente; se persistir, informe o requestId ao suporte.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'erro_interno';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Banco de dados indisponível; repita em instantes. */
      503: {
        headers: {
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "db_unavailable",
           *       "message": "Banco de dados indisponível no momento. Tente novamente em instantes.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'db_unavailable';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
    };
  };
  removerMarca: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Removida. */
      204: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Corpo malformado (JSON inválido, tipo de conteúdo não suportado). */
      400: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "requisicao_invalida",
           *       "message": "Requisição inválida.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'requisicao_invalida';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Token ausente, inválido ou expirado. */
      401: {
        headers: {
          /** @description Desafio Bearer: `Bearer realm="consigna", error="invalid_token", error_description="..."`. */
          'WWW-Authenticate'?: string;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "unauthorized",
           *       "message": "Token de acesso ausente, inválido ou expirado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'unauthorized';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Canal inativo ou IP fora da lista de IPs permitidos do canal. */
      403: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "forbidden",
           *       "message": "Canal inativo ou endereço IP não autorizado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'forbidden';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Nenhuma marca definida: as páginas usam o nome do canal. */
      404: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "nao_encontrado",
           *       "message": "Recurso não encontrado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'nao_encontrado';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Corpo acima do limite (64 KB). */
      413: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "corpo_muito_grande",
           *       "message": "Corpo da requisição acima do limite permitido.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'corpo_muito_grande';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Limite de requisições do canal excedido. */
      429: {
        headers: {
          'RateLimit-Limit'?: number;
          'RateLimit-Remaining'?: number;
          'RateLimit-Reset'?: number;
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "limite_excedido",
           *       "message": "Limite de requisições excedido. Aguarde e tente novamente.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'limite_excedido';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Erro inesperado; a resposta nunca traz detalhes internos. */
      500: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "erro_interno",
           *       "message": "Erro interno. Tente novamente; se persistir, informe o requestId ao suporte.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'erro_interno';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Banco de dados indisponível; repita em instantes. */
      503: {
        headers: {
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "db_unavailable",
           *       "message": "Banco de dados indisponível no momento. Tente novamente em instantes.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'db_unavailable';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
    };
  };
  emitirToken: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/x-www-form-urlencoded': {
          /** @description Somente sem o cabeçalho Basic. */
          client_id?: string;
          /** @description Somente sem o cabeçalho Basic. */
          client_secret?: string;
          /**
           * @description Obrigatório; valor `client_credentials`.
           * @example client_credentials
           */
          grant_type?: string;
        } & {
          [key: string]: string;
        };
      };
    };
    responses: {
      /** @description Token emitido. */
      200: {
        headers: {
          'Cache-Control'?: 'no-store';
          Pragma?: 'no-cache';
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /**
             * @description Token opaco com prefixo `cat_`.
             * @example cat_3kV9xQ2mR8tL1pW7nZ4bC6dF0hJ5sY2uA9eG3iK8oM1qT7vX
             */
            access_token: string;
            /**
             * @description Validade em segundos (3600). Reutilize o token até expirar.
             * @example 3600
             */
            expires_in: number;
            /** @enum {string} */
            token_type: 'Bearer';
          };
        };
      };
      /** @description Requisição de token inválida (corpo não é form, parâmetro repetido, grant_type ausente ou diferente de client_credentials, credenciais no cabeçalho e no corpo ao mesmo tempo, client_id ou client_secret malformado: caractere de controle ou mais de 256 caracteres). Não conta para o bloqueio. */
      400: {
        headers: {
          'Cache-Control'?: 'no-store';
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /**
             * @description Código de erro OAuth 2.0 (RFC 6749 §5.2).
             * @enum {string}
             */
            error: 'invalid_request' | 'unsupported_grant_type';
            /** @description Descrição em pt-BR. */
            error_description: string;
            requestId: string;
          };
        };
      };
      /** @description Autenticação do cliente falhou (RFC 6749 §5.2): credenciais ausentes ou incompletas, cabeçalho Authorization de outro esquema ou malformado, cliente desconhecido, segredo errado, canal inativo ou IP não permitido. Traz `WWW-Authenticate: Basic realm="consigna"` quando não houve credenciais ou quando vieram no cabeçalho. */
      401: {
        headers: {
          'Cache-Control'?: 'no-store';
          'WWW-Authenticate'?: string;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /**
             * @description Código de erro OAuth 2.0 (RFC 6749 §5.2).
             * @enum {string}
             */
            error: 'invalid_client';
            /** @description Descrição em pt-BR. */
            error_description: string;
            requestId: string;
          };
        };
      };
      /** @description Corpo acima de 4 KB. */
      413: {
        headers: {
          'Cache-Control'?: 'no-store';
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /**
             * @description Código de erro OAuth 2.0 (RFC 6749 §5.2).
             * @enum {string}
             */
            error: 'invalid_request';
            /** @description Descrição em pt-BR. */
            error_description: string;
            requestId: string;
          };
        };
      };
      /** @description Bloqueio temporário após muitas tentativas inválidas. */
      429: {
        headers: {
          'Cache-Control'?: 'no-store';
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /**
             * @description Código de erro OAuth 2.0 (RFC 6749 §5.2).
             * @enum {string}
             */
            error: 'too_many_attempts';
            /** @description Descrição em pt-BR. */
            error_description: string;
            requestId: string;
          };
        };
      };
      /** @description Dependência indisponível (banco de dados); tente novamente. */
      503: {
        headers: {
          'Cache-Control'?: 'no-store';
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /**
             * @description Código de erro OAuth 2.0 (RFC 6749 §5.2).
             * @enum {string}
             */
            error: 'temporarily_unavailable';
            /** @description Descrição em pt-BR. */
            error_description: string;
            requestId: string;
          };
        };
      };
    };
  };
  confirmarToken: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Token válido e canal ativo. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            canal: {
              /** Format: uuid */
              id: string;
              nome: string;
            };
            /**
             * Format: date-time
             * @description Hora lida do banco de dados.
             * @example 2026-11-22T14:03:23.123Z
             */
            dbTime: string;
          };
        };
      };
      /** @description Corpo malformado (JSON inválido, tipo de conteúdo não suportado). */
      400: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "requisicao_invalida",
           *       "message": "Requisição inválida.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'requisicao_invalida';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Token ausente, inválido ou expirado. */
      401: {
        headers: {
          /** @description Desafio Bearer: `Bearer realm="consigna", error="invalid_token", error_description="..."`. */
          'WWW-Authenticate'?: string;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "unauthorized",
           *       "message": "Token de acesso ausente, inválido ou expirado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'unauthorized';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Canal inativo ou IP fora da lista de IPs permitidos do canal. */
      403: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "forbidden",
           *       "message": "Canal inativo ou endereço IP não autorizado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'forbidden';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Corpo acima do limite (64 KB). */
      413: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "corpo_muito_grande",
           *       "message": "Corpo da requisição acima do limite permitido.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'corpo_muito_grande';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Limite de requisições do canal excedido. */
      429: {
        headers: {
          'RateLimit-Limit'?: number;
          'RateLimit-Remaining'?: number;
          'RateLimit-Reset'?: number;
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "limite_excedido",
           *       "message": "Limite de requisições excedido. Aguarde e tente novamente.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'limite_excedido';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Erro inesperado; a resposta nunca traz detalhes internos. */
      500: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "erro_interno",
           *       "message": "Erro interno. Tente novamente; se persistir, informe o requestId ao suporte.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'erro_interno';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Banco de dados indisponível; repita em instantes. */
      503: {
        headers: {
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "db_unavailable",
           *       "message": "Banco de dados indisponível no momento. Tente novamente em instantes.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'db_unavailable';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
    };
  };
  criarSessaoPortal: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** @description Opcional: sem corpo, acesso completo (leitura e escrita). */
    requestBody?: {
      content: {
        'application/json': {
          /** @description `["leitura"]`: a sessão vê tudo e não altera nada. `["leitura", "escrita"]` (o padrão): também altera (webhook, marca, reenvios). `leitura` sempre; `escrita` sozinha é inválida. */
          permissoes?: ('leitura' | 'escrita')[];
        };
      };
    };
    responses: {
      /** @description Link de acesso criado. */
      201: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "url": "https://sandbox.consigna.example/portal/entrar/8fKq2LmZr4TxW9bNc1VdYh6PsJ0aEuGo3iRkQ7nMtBy",
           *       "expiraEm": "2026-11-22T14:13:23.123Z",
           *       "permissoes": [
           *         "leitura",
           *         "escrita"
           *       ]
           *     }
           */
          'application/json': {
            /**
             * Format: date-time
             * @description Até quando o link pode ser usado.
             * @example 2026-11-22T14:03:23.123Z
             */
            expiraEm: string;
            /** @description `["leitura"]`: a sessão vê tudo e não altera nada. `["leitura", "escrita"]` (o padrão): também altera (webhook, marca, reenvios). `leitura` sempre; `escrita` sozinha é inválida. */
            permissoes: ('leitura' | 'escrita')[];
            /**
             * Format: uri
             * @description O link de acesso, de uso único: `{base_url}/portal/entrar/{token}`.
             */
            url: string;
          };
        };
      };
      /** @description `permissoes` inválidas, ou corpo inválido. */
      400: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "permissoes_invalidas",
           *       "message": "permissoes inválidas: use [\"leitura\"] (somente leitura) ou [\"leitura\", \"escrita\"].",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'permissoes_invalidas' | 'requisicao_invalida';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Token ausente, inválido ou expirado. */
      401: {
        headers: {
          /** @description Desafio Bearer: `Bearer realm="consigna", error="invalid_token", error_description="..."`. */
          'WWW-Authenticate'?: string;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "unauthorized",
           *       "message": "Token de acesso ausente, inválido ou expirado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'unauthorized';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Canal inativo ou IP fora da lista de IPs permitidos do canal. */
      403: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "forbidden",
           *       "message": "Canal inativo ou endereço IP não autorizado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'forbidden';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Corpo acima do limite (64 KB). */
      413: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "corpo_muito_grande",
           *       "message": "Corpo da requisição acima do limite permitido.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'corpo_muito_grande';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Limite de requisições do canal excedido. */
      429: {
        headers: {
          'RateLimit-Limit'?: number;
          'RateLimit-Remaining'?: number;
          'RateLimit-Reset'?: number;
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "limite_excedido",
           *       "message": "Limite de requisições excedido. Aguarde e tente novamente.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'limite_excedido';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Erro inesperado; a resposta nunca traz detalhes internos. */
      500: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "erro_interno",
           *       "message": "Erro interno. Tente novamente; se persistir, informe o requestId ao suporte.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'erro_interno';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Banco de dados indisponível; repita em instantes. */
      503: {
        headers: {
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "db_unavailable",
           *       "message": "Banco de dados indisponível no momento. Tente novamente em instantes.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'db_unavailable';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
    };
  };
  encerrarSessoesPortal: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Sessões encerradas. */
      200: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "encerradas": 2
           *     }
           */
          'application/json': {
            /** @description Quantas sessões ativas foram encerradas. */
            encerradas: number;
          };
        };
      };
      /** @description Corpo malformado (JSON inválido, tipo de conteúdo não suportado). */
      400: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "requisicao_invalida",
           *       "message": "Requisição inválida.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'requisicao_invalida';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Token ausente, inválido ou expirado. */
      401: {
        headers: {
          /** @description Desafio Bearer: `Bearer realm="consigna", error="invalid_token", error_description="..."`. */
          'WWW-Authenticate'?: string;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "unauthorized",
           *       "message": "Token de acesso ausente, inválido ou expirado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'unauthorized';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Canal inativo ou IP fora da lista de IPs permitidos do canal. */
      403: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "forbidden",
           *       "message": "Canal inativo ou endereço IP não autorizado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'forbidden';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Corpo acima do limite (64 KB). */
      413: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "corpo_muito_grande",
           *       "message": "Corpo da requisição acima do limite permitido.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'corpo_muito_grande';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Limite de requisições do canal excedido. */
      429: {
        headers: {
          'RateLimit-Limit'?: number;
          'RateLimit-Remaining'?: number;
          'RateLimit-Reset'?: number;
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "limite_excedido",
           *       "message": "Limite de requisições excedido. Aguarde e tente novamente.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'limite_excedido';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Erro inesperado; a resposta nunca traz detalhes internos. */
      500: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "erro_interno",
           *       "message": "Erro interno. Tente novamente; se persistir, informe o requestId ao suporte.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'erro_interno';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Banco de dados indisponível; repita em instantes. */
      503: {
        headers: {
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "db_unavailable",
           *       "message": "Banco de dados indisponível no momento. Tente novamente em instantes.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'db_unavailable';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
    };
  };
  consultarFunil: {
    parameters: {
      query: {
        /** @description `dia` (padrão): um grupo por dia do período, dias sem links inclusive. `referenciaExterna`: um grupo por referência, as de mais links criados primeiro (empate: ordem da referência), até `limite`; as demais somadas em `outros`, e os links sem referência em `semReferencia`. */
        agruparPor?: 'dia' | 'referenciaExterna';
        /** @description Último dia do período (AAAA-MM-DD), inclusive; no máximo 366 dias. */
        ate: string;
        /** @description Primeiro dia do período (AAAA-MM-DD, em São Paulo), inclusive. */
        de: string;
        /** @description Com `agruparPor=referenciaExterna`: quantas referências mostrar, de 1 a 100 (padrão 20). */
        limite?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description O funil do período, com o total e os grupos. */
      200: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "de": "2026-11-01",
           *       "ate": "2026-11-02",
           *       "fusoHorario": "America/Sao_Paulo",
           *       "agruparPor": "dia",
           *       "geradoEm": "2026-11-03T12:00:00.000Z",
           *       "total": {
           *         "criados": 120,
           *         "abertos": 95,
           *         "emAndamento": 4,
           *         "concluidos": 41,
           *         "cancelados": 12,
           *         "expirados": 28,
           *         "propostas": {
           *           "CRIADA": 1,
           *           "AGUARDANDO_FORMALIZACAO": 6,
           *           "FORMALIZADA": 7,
           *           "APROVADA": 25,
           *           "RECUSADA": 1,
           *           "CANCELADA": 1
           *         }
           *       },
           *       "grupos": [
           *         {
           *           "dia": "2026-11-01",
           *           "criados": 120,
           *           "abertos": 95,
           *           "emAndamento": 4,
           *           "concluidos": 41,
           *           "cancelados": 12,
           *           "expirados": 28,
           *           "propostas": {
           *             "CRIADA": 1,
           *             "AGUARDANDO_FORMALIZACAO": 6,
           *             "FORMALIZADA": 7,
           *             "APROVADA": 25,
           *             "RECUSADA": 1,
           *             "CANCELADA": 1
           *           }
           *         },
           *         {
           *           "dia": "2026-11-02",
           *           "criados": 0,
           *           "abertos": 0,
           *           "emAndamento": 0,
           *           "concluidos": 0,
           *           "cancelados": 0,
           *           "expirados": 0,
           *           "propostas": {
           *             "CRIADA": 0,
           *             "AGUARDANDO_FORMALIZACAO": 0,
           *             "FORMALIZADA": 0,
           *             "APROVADA": 0,
           *             "RECUSADA": 0,
           *             "CANCELADA": 0
           *           }
           *         }
           *       ]
           *     }
           */
          'application/json': {
            /** @enum {string} */
            agruparPor: 'dia' | 'referenciaExterna';
            /** Format: date */
            ate: string;
            /** Format: date */
            de: string;
            /**
             * @description O fuso dos dias.
             * @enum {string}
             */
            fusoHorario: 'America/Sao_Paulo';
            /**
             * Format: date-time
             * @description O instante das contagens.
             * @example 2026-11-22T14:03:23.123Z
             */
            geradoEm: string;
            grupos: {
              /** @description Desses, os que o cliente abriu pelo menos uma vez (têm `abertoEm`), qualquer que seja o status agora. */
              abertos: number;
              /** @description Desses, os `CANCELADO`: a jornada terminou sem proposta possível. */
              cancelados: number;
              /** @description Desses, os `CONCLUIDO`: a proposta foi criada no banco. */
              concluidos: number;
              /** @description Links criados. */
              criados: number;
              /**
               * Format: date
               * @description Com `agruparPor=dia`: o dia de São Paulo.
               */
              dia?: string;
              /** @description Desses, os que estão `EM_ANDAMENTO` agora: celular confirmado, proposta ainda não enviada, link não expirado. */
              emAndamento: number;
              /** @description Desses, os `EXPIRADO` (como a consulta do link os mostra). */
              expirados: number;
              /** @description As propostas desses links pelo status de agora; somam `concluidos`. */
              propostas: {
                AGUARDANDO_FORMALIZACAO: number;
                APROVADA: number;
                CANCELADA: number;
                CRIADA: number;
                FORMALIZADA: number;
                RECUSADA: number;
              };
              /** @description Com `agruparPor=referenciaExterna`: a referência. */
              referenciaExterna?: string;
            }[];
            /** @description Com `agruparPor=referenciaExterna`: as referências além de `limite`, somadas (quando há). */
            outros?: {
              /** @description Desses, os que o cliente abriu pelo menos uma vez (têm `abertoEm`), qualquer que seja o status agora. */
              abertos: number;
              /** @description Desses, os `CANCELADO`: a jornada terminou sem proposta possível. */
              cancelados: number;
              /** @description Desses, os `CONCLUIDO`: a proposta foi criada no banco. */
              concluidos: number;
              /** @description Links criados. */
              criados: number;
              /** @description Desses, os que estão `EM_ANDAMENTO` agora: celular confirmado, proposta ainda não enviada, link não expirado. */
              emAndamento: number;
              /** @description Desses, os `EXPIRADO` (como a consulta do link os mostra). */
              expirados: number;
              /** @description As propostas desses links pelo status de agora; somam `concluidos`. */
              propostas: {
                AGUARDANDO_FORMALIZACAO: number;
                APROVADA: number;
                CANCELADA: number;
                CRIADA: number;
                FORMALIZADA: number;
                RECUSADA: number;
              };
              /** @description Quantas referências estão somadas aqui. */
              referencias: number;
            };
            /** @description Com `agruparPor=referenciaExterna`: os links sem referência (quando há). */
            semReferencia?: {
              /** @description Desses, os que o cliente abriu pelo menos uma vez (têm `abertoEm`), qualquer que seja o status agora. */
              abertos: number;
              /** @description Desses, os `CANCELADO`: a jornada terminou sem proposta possível. */
              cancelados: number;
              /** @description Desses, os `CONCLUIDO`: a proposta foi criada no banco. */
              concluidos: number;
              /** @description Links criados. */
              criados: number;
              /** @description Desses, os que estão `EM_ANDAMENTO` agora: celular confirmado, proposta ainda não enviada, link não expirado. */
              emAndamento: number;
              /** @description Desses, os `EXPIRADO` (como a consulta do link os mostra). */
              expirados: number;
              /** @description As propostas desses links pelo status de agora; somam `concluidos`. */
              propostas: {
                AGUARDANDO_FORMALIZACAO: number;
                APROVADA: number;
                CANCELADA: number;
                CRIADA: number;
                FORMALIZADA: number;
                RECUSADA: number;
              };
            };
            /** @description O período inteiro. */
            total: {
              /** @description Desses, os que o cliente abriu pelo menos uma vez (têm `abertoEm`), qualquer que seja o status agora. */
              abertos: number;
              /** @description Desses, os `CANCELADO`: a jornada terminou sem proposta possível. */
              cancelados: number;
              /** @description Desses, os `CONCLUIDO`: a proposta foi criada no banco. */
              concluidos: number;
              /** @description Links criados. */
              criados: number;
              /** @description Desses, os que estão `EM_ANDAMENTO` agora: celular confirmado, proposta ainda não enviada, link não expirado. */
              emAndamento: number;
              /** @description Desses, os `EXPIRADO` (como a consulta do link os mostra). */
              expirados: number;
              /** @description As propostas desses links pelo status de agora; somam `concluidos`. */
              propostas: {
                AGUARDANDO_FORMALIZACAO: number;
                APROVADA: number;
                CANCELADA: number;
                CRIADA: number;
                FORMALIZADA: number;
                RECUSADA: number;
              };
            };
          };
        };
      };
      /** @description Parâmetro inválido (o `code` diz qual), `de` depois de `ate`, ou período de mais de 366 dias. */
      400: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "de_invalido",
           *       "message": "Parâmetro de inválido: informe um dia AAAA-MM-DD, por exemplo 2026-11-01.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'de_invalido' | 'ate_invalido' | 'periodo_invalido' | 'agrupar_por_invalido' | 'limite_invalido';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Token ausente, inválido ou expirado. */
      401: {
        headers: {
          /** @description Desafio Bearer: `Bearer realm="consigna", error="invalid_token", error_description="..."`. */
          'WWW-Authenticate'?: string;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "unauthorized",
           *       "message": "Token de acesso ausente, inválido ou expirado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'unauthorized';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Canal inativo ou IP fora da lista de IPs permitidos do canal. */
      403: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "forbidden",
           *       "message": "Canal inativo ou endereço IP não autorizado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'forbidden';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Corpo acima do limite (64 KB). */
      413: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "corpo_muito_grande",
           *       "message": "Corpo da requisição acima do limite permitido.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'corpo_muito_grande';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Limite de requisições do canal excedido. */
      429: {
        headers: {
          'RateLimit-Limit'?: number;
          'RateLimit-Remaining'?: number;
          'RateLimit-Reset'?: number;
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "limite_excedido",
           *       "message": "Limite de requisições excedido. Aguarde e tente novamente.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'limite_excedido';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Erro inesperado; a resposta nunca traz detalhes internos. */
      500: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "erro_interno",
           *       "message": "Erro interno. Tente novamente; se persistir, informe o requestId ao suporte.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'erro_interno';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Banco de dados indisponível; repita em instantes. */
      503: {
        headers: {
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "db_unavailable",
           *       "message": "Banco de dados indisponível no momento. Tente novamente em instantes.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'db_unavailable';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
    };
  };
  garantirReceptor: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** @description Opcional: sem corpo, cria ou devolve o receptor. */
    requestBody?: {
      content: {
        'application/json': {
          /**
           * @description Status com que o receptor responde: 200, 202, 204, 400, 401, 404, 500, 502, 503.
           * @enum {integer}
           */
          responderStatus?: 200 | 202 | 204 | 400 | 401 | 404 | 500 | 502 | 503;
        };
      };
    };
    responses: {
      /** @description Receptor do canal. */
      200: {
        headers: {
          'Cache-Control'?: 'no-store';
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            responderStatus: number;
            /** @description Registre esta URL em PUT /v1/webhooks. O token (prefixo `sbx_`) é o último segmento. */
            url: string;
            /** @description Página que lista os eventos recebidos e se atualiza sozinha. */
            visualizacaoUrl: string;
          };
        };
      };
      /** @description responderStatus fora dos valores aceitos, ou corpo inválido. */
      400: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "status_invalido",
           *       "message": "Status inválido.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'status_invalido' | 'requisicao_invalida';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Token ausente, inválido ou expirado. */
      401: {
        headers: {
          /** @description Desafio Bearer: `Bearer realm="consigna", error="invalid_token", error_description="..."`. */
          'WWW-Authenticate'?: string;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "unauthorized",
           *       "message": "Token de acesso ausente, inválido ou expirado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'unauthorized';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Canal inativo ou IP fora da lista de IPs permitidos do canal. */
      403: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "forbidden",
           *       "message": "Canal inativo ou endereço IP não autorizado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'forbidden';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Corpo acima do limite (64 KB). */
      413: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "corpo_muito_grande",
           *       "message": "Corpo da requisição acima do limite permitido.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'corpo_muito_grande';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Limite de requisições do canal excedido. */
      429: {
        headers: {
          'RateLimit-Limit'?: number;
          'RateLimit-Remaining'?: number;
          'RateLimit-Reset'?: number;
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "limite_excedido",
           *       "message": "Limite de requisições excedido. Aguarde e tente novamente.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'limite_excedido';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Erro inesperado; a resposta nunca traz detalhes internos. */
      500: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "erro_interno",
           *       "message": "Erro interno. Tente novamente; se persistir, informe o requestId ao suporte.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'erro_interno';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Banco de dados indisponível; repita em instantes. */
      503: {
        headers: {
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "db_unavailable",
           *       "message": "Banco de dados indisponível no momento. Tente novamente em instantes.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'db_unavailable';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
    };
  };
  receberEvento: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Token do receptor (prefixo `sbx_`). */
        token: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Ou o status configurado (202, 204, 400, 401, 404, 500, 502, 503). */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            recebido: boolean;
          };
        };
      };
      /** @description Corpo malformado (JSON inválido, tipo de conteúdo não suportado). */
      400: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "requisicao_invalida",
           *       "message": "Requisição inválida.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'requisicao_invalida';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Receptor não encontrado. */
      404: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "nao_encontrado",
           *       "message": "Recurso não encontrado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'nao_encontrado';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Corpo acima de 64 KB. */
      413: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "corpo_muito_grande",
           *       "message": "Corpo da requisição acima do limite permitido.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'corpo_muito_grande';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Limite de requisições do token excedido (ou, para tokens inexistentes, do IP de origem). */
      429: {
        headers: {
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "limite_excedido",
           *       "message": "Limite de requisições excedido. Aguarde e tente novamente.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'limite_excedido';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Serviço sobrecarregado (ou banco indisponível) no momento; repita depois de `Retry-After`. */
      503: {
        headers: {
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "servico_sobrecarregado",
           *       "message": "Serviço sobrecarregado no momento. Tente novamente em instantes.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'servico_sobrecarregado' | 'db_unavailable';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
    };
  };
  listarEventosReceptor: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Token do receptor (prefixo `sbx_`). */
        token: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Status configurado e eventos recebidos (até 50). */
      200: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            eventos: {
              /** @description null quando não foi possível verificar (veja `motivo`). */
              assinaturaValida: boolean | null;
              /** @description Corpo como recebido: JSON, ou texto quando não é JSON. Um JSON com mais de 64 níveis de aninhamento vem como texto, com `corpoAviso`. */
              corpo: unknown;
              /** @description Presente quando um corpo em JSON é mostrado como texto, e por quê (aninhamento acima de 64 níveis). */
              corpoAviso?: string;
              eventoId?: string;
              headers: {
                [key: string]: string;
              };
              id: number;
              motivo?: string;
              /**
               * Format: date-time
               * @example 2026-11-22T14:03:23.123Z
               */
              recebidoEm: string;
              /** @description Status com que o receptor respondeu (o `responderStatus` dele naquele momento). Numa entrega da Consigna, é o status registrado na tentativa, e é ele que decide se haverá nova tentativa; o `listen` mostra este e o do seu servidor local. */
              respondeuStatus: number;
              tentativa?: string;
              tipo?: string;
            }[];
            responderStatus: number;
          };
        };
      };
      /** @description Corpo malformado (JSON inválido, tipo de conteúdo não suportado). */
      400: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "requisicao_invalida",
           *       "message": "Requisição inválida.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'requisicao_invalida';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Receptor não encontrado. */
      404: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "nao_encontrado",
           *       "message": "Recurso não encontrado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'nao_encontrado';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Corpo acima do limite (64 KB). */
      413: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "corpo_muito_grande",
           *       "message": "Corpo da requisição acima do limite permitido.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'corpo_muito_grande';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Limite de requisições do token excedido (ou, para tokens inexistentes, do IP de origem). */
      429: {
        headers: {
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "limite_excedido",
           *       "message": "Limite de requisições excedido. Aguarde e tente novamente.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'limite_excedido';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Serviço sobrecarregado (ou banco indisponível) no momento; repita depois de `Retry-After`. */
      503: {
        headers: {
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "servico_sobrecarregado",
           *       "message": "Serviço sobrecarregado no momento. Tente novamente em instantes.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'servico_sobrecarregado' | 'db_unavailable';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
    };
  };
  apagarEventosReceptorPorToken: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Token do receptor (prefixo `sbx_`). */
        token: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Eventos apagados. */
      204: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Corpo malformado (JSON inválido, tipo de conteúdo não suportado). */
      400: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "requisicao_invalida",
           *       "message": "Requisição inválida.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'requisicao_invalida';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Receptor não encontrado. */
      404: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "nao_encontrado",
           *       "message": "Recurso não encontrado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'nao_encontrado';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Corpo acima do limite (64 KB). */
      413: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "corpo_muito_grande",
           *       "message": "Corpo da requisição acima do limite permitido.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'corpo_muito_grande';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Limite de requisições do token excedido (ou, para tokens inexistentes, do IP de origem). */
      429: {
        headers: {
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "limite_excedido",
           *       "message": "Limite de requisições excedido. Aguarde e tente novamente.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'limite_excedido';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
    };
  };
  obterCorpoEventoReceptor: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id do registro recebido. */
        id: number;
        /** @description Token do receptor (prefixo `sbx_`). */
        token: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description O corpo como chegou. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
      /** @description Corpo malformado (JSON inválido, tipo de conteúdo não suportado). */
      400: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "requisicao_invalida",
           *       "message": "Requisição inválida.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'requisicao_invalida';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Receptor ou registro não encontrado (o receptor guarda só os 50 mais recentes). */
      404: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "nao_encontrado",
           *       "message": "Recurso não encontrado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'nao_encontrado';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Corpo acima do limite (64 KB). */
      413: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "corpo_muito_grande",
           *       "message": "Corpo da requisição acima do limite permitido.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'corpo_muito_grande';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Limite de requisições do token excedido (ou, para tokens inexistentes, do IP de origem). */
      429: {
        headers: {
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "limite_excedido",
           *       "message": "Limite de requisições excedido. Aguarde e tente novamente.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'limite_excedido';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Serviço sobrecarregado (ou banco indisponível) no momento; repita depois de `Retry-After`. */
      503: {
        headers: {
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "servico_sobrecarregado",
           *       "message": "Serviço sobrecarregado no momento. Tente novamente em instantes.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'servico_sobrecarregado' | 'db_unavailable';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
    };
  };
  acompanharEventosReceptor: {
    parameters: {
      query?: {
        /** @description Id do último registro já visto (o cabeçalho `Last-Event-ID` prevalece). Não pode passar do último id já emitido. */
        desde?: number;
      };
      header?: {
        /** @description Id do último registro já visto (reconexão). */
        'last-event-id'?: string;
      };
      path: {
        /** @description Token do receptor (prefixo `sbx_`). */
        token: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Fluxo de eventos (não termina enquanto o cliente estiver conectado). */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/event-stream': string;
        };
      };
      /** @description `desde` ou `Last-Event-ID` que não é um id de registro (não numérico, ou além do último id já emitido). */
      400: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "requisicao_invalida",
           *       "message": "Requisição inválida.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'requisicao_invalida';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Receptor não encontrado. */
      404: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "nao_encontrado",
           *       "message": "Recurso não encontrado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'nao_encontrado';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Corpo acima do limite (64 KB). */
      413: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "corpo_muito_grande",
           *       "message": "Corpo da requisição acima do limite permitido.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'corpo_muito_grande';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Conexões demais com este token, ou fluxos abertos demais para este receptor. */
      429: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "limite_excedido",
           *       "message": "Limite de requisições excedido. Aguarde e tente novamente.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'limite_excedido';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description O processo já mantém o máximo de fluxos abertos, ou está sobrecarregado; repita depois de `Retry-After`. */
      503: {
        headers: {
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "servico_sobrecarregado",
           *       "message": "Serviço sobrecarregado no momento. Tente novamente em instantes.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'servico_sobrecarregado' | 'db_unavailable';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
    };
  };
  definirStatusReceptor: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Token do receptor (prefixo `sbx_`). */
        token: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /**
           * @description Status com que o receptor responde: 200, 202, 204, 400, 401, 404, 500, 502, 503.
           * @enum {integer}
           */
          responderStatus: 200 | 202 | 204 | 400 | 401 | 404 | 500 | 502 | 503;
        };
      };
    };
    responses: {
      /** @description Status com que o receptor passa a responder. */
      200: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            responderStatus: number;
          };
        };
      };
      /** @description responderStatus fora dos valores aceitos. */
      400: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "status_invalido",
           *       "message": "Status inválido.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'status_invalido' | 'requisicao_invalida';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Receptor não encontrado. */
      404: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "nao_encontrado",
           *       "message": "Recurso não encontrado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'nao_encontrado';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Corpo acima do limite (64 KB). */
      413: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "corpo_muito_grande",
           *       "message": "Corpo da requisição acima do limite permitido.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'corpo_muito_grande';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Limite de requisições do token excedido (ou, para tokens inexistentes, do IP de origem). */
      429: {
        headers: {
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "limite_excedido",
           *       "message": "Limite de requisições excedido. Aguarde e tente novamente.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'limite_excedido';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
    };
  };
  apagarEventosReceptor: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Eventos apagados. */
      204: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Corpo malformado (JSON inválido, tipo de conteúdo não suportado). */
      400: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "requisicao_invalida",
           *       "message": "Requisição inválida.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'requisicao_invalida';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Token ausente, inválido ou expirado. */
      401: {
        headers: {
          /** @description Desafio Bearer: `Bearer realm="consigna", error="invalid_token", error_description="..."`. */
          'WWW-Authenticate'?: string;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "unauthorized",
           *       "message": "Token de acesso ausente, inválido ou expirado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'unauthorized';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Canal inativo ou IP fora da lista de IPs permitidos do canal. */
      403: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "forbidden",
           *       "message": "Canal inativo ou endereço IP não autorizado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'forbidden';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description O canal ainda não criou seu receptor. */
      404: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "nao_encontrado",
           *       "message": "Recurso não encontrado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'nao_encontrado';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Corpo acima do limite (64 KB). */
      413: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "corpo_muito_grande",
           *       "message": "Corpo da requisição acima do limite permitido.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'corpo_muito_grande';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Limite de requisições do canal excedido. */
      429: {
        headers: {
          'RateLimit-Limit'?: number;
          'RateLimit-Remaining'?: number;
          'RateLimit-Reset'?: number;
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "limite_excedido",
           *       "message": "Limite de requisições excedido. Aguarde e tente novamente.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'limite_excedido';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Erro inesperado; a resposta nunca traz detalhes internos. */
      500: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "erro_interno",
           *       "message": "Erro interno. Tente novamente; se persistir, informe o requestId ao suporte.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'erro_interno';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Banco de dados indisponível; repita em instantes. */
      503: {
        headers: {
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "db_unavailable",
           *       "message": "Banco de dados indisponível no momento. Tente novamente em instantes.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'db_unavailable';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
    };
  };
  consultarWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description O webhook do canal (nunca o segredo), com `saude`. */
      200: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "ambiente": "SANDBOX",
           *       "url": "https://hooks.fintech.example/consigna",
           *       "eventos": [],
           *       "ativo": true,
           *       "criadoEm": "2026-11-22T14:03:23.123Z",
           *       "atualizadoEm": "2026-11-22T14:03:23.123Z"
           *     }
           */
          'application/json': {
            /** @enum {string} */
            ambiente: 'SANDBOX' | 'REAL';
            /** @description Sempre true: o serviço nunca desativa um webhook sozinho. */
            ativo: boolean;
            /**
             * Format: date-time
             * @example 2026-11-22T14:03:23.123Z
             */
            atualizadoEm: string;
            /**
             * Format: date-time
             * @example 2026-11-22T14:03:23.123Z
             */
            criadoEm: string;
            /** @description Tipos assinados; lista vazia = todos os estados da proposta. */
            eventos: string[];
            saude?: {
              /** @description true depois de 3 falhas seguidas: uma tentativa por vez, 1 s entre elas, até uma resposta 2xx. */
              contido: boolean;
              /**
               * Format: date-time
               * @example 2026-11-22T14:03:23.123Z
               */
              contidoDesde?: string;
              /** @description Entregas FALHOU (podem ser reenviadas). */
              falhas: number;
              /** @description Tentativas seguidas que falharam (zera numa resposta 2xx). */
              falhasSeguidas: number;
              /** @description Entregas PENDENTE (na fila ou aguardando nova tentativa). */
              pendentes: number;
              /**
               * Format: date-time
               * @example 2026-11-22T14:03:23.123Z
               */
              ultimaFalhaEm?: string;
              /** @description Tempo esgotado, conexão recusada, HTTP 500… */
              ultimaFalhaMotivo?: string;
              /**
               * Format: date-time
               * @description Última tentativa respondida com 2xx.
               * @example 2026-11-22T14:03:23.123Z
               */
              ultimoSucessoEm?: string;
            };
            /** @description Prefixo `whsec_`. Mostrado somente no registro e na rotação; guarde-o num cofre de segredos. */
            segredo?: string;
            /**
             * Format: date-time
             * @description Durante a rotação: até quando o segredo anterior ainda assina.
             * @example 2026-11-22T14:03:23.123Z
             */
            segredoAnteriorValidoAte?: string;
            url: string;
          };
        };
      };
      /** @description Corpo malformado (JSON inválido, tipo de conteúdo não suportado). */
      400: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "requisicao_invalida",
           *       "message": "Requisição inválida.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'requisicao_invalida';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Token ausente, inválido ou expirado. */
      401: {
        headers: {
          /** @description Desafio Bearer: `Bearer realm="consigna", error="invalid_token", error_description="..."`. */
          'WWW-Authenticate'?: string;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "unauthorized",
           *       "message": "Token de acesso ausente, inválido ou expirado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'unauthorized';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Canal inativo ou IP fora da lista de IPs permitidos do canal. */
      403: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "forbidden",
           *       "message": "Canal inativo ou endereço IP não autorizado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'forbidden';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Nenhum webhook registrado para o canal. */
      404: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "nao_encontrado",
           *       "message": "Recurso não encontrado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'nao_encontrado';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Corpo acima do limite (64 KB). */
      413: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "corpo_muito_grande",
           *       "message": "Corpo da requisição acima do limite permitido.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'corpo_muito_grande';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Limite de requisições do canal excedido. */
      429: {
        headers: {
          'RateLimit-Limit'?: number;
          'RateLimit-Remaining'?: number;
          'RateLimit-Reset'?: number;
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "limite_excedido",
           *       "message": "Limite de requisições excedido. Aguarde e tente novamente.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'limite_excedido';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Erro inesperado; a resposta nunca traz detalhes internos. */
      500: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "erro_interno",
           *       "message": "Erro interno. Tente novamente; se persistir, informe o requestId ao suporte.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'erro_interno';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Banco de dados indisponível; repita em instantes. */
      503: {
        headers: {
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "db_unavailable",
           *       "message": "Banco de dados indisponível no momento. Tente novamente em instantes.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'db_unavailable';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
    };
  };
  registrarWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description Tipos `proposta.*` a assinar, sem repetição; vazia ou ausente = todos. `webhook.teste` não é aceito. */
          eventos?: (
            | 'proposta.criada'
            | 'proposta.aguardando_formalizacao'
            | 'proposta.formalizada'
            | 'proposta.aprovada'
            | 'proposta.recusada'
            | 'proposta.cancelada'
            | 'proposta.falha'
          )[];
          /**
           * @description https, nome DNS público (sem IP, sem localhost, sem nome de um rótulo, sem .local/.internal/.localhost), sem usuário/senha, porta 443 ou acima de 1024, até 2.048 caracteres, sem espaços, caracteres de controle, controles de direção de texto ou UTF-16 malformado. A URL do receptor de testes do próprio canal é sempre aceita, escrita como for (consulta, barra final, maiúsculas no nome, `%2F`…): ela é reconhecida pelo token. Uma URL cujo caminho aponte para o receptor de outro canal é recusada (`url_invalida`).
           * @example https://hooks.fintech.example/consigna
           */
          url: string;
        };
      };
    };
    responses: {
      /** @description Webhook atualizado (o segredo não é mostrado de novo). */
      200: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "ambiente": "SANDBOX",
           *       "url": "https://hooks.fintech.example/consigna",
           *       "eventos": [],
           *       "ativo": true,
           *       "criadoEm": "2026-11-22T14:03:23.123Z",
           *       "atualizadoEm": "2026-11-22T14:03:23.123Z"
           *     }
           */
          'application/json': {
            /** @enum {string} */
            ambiente: 'SANDBOX' | 'REAL';
            /** @description Sempre true: o serviço nunca desativa um webhook sozinho. */
            ativo: boolean;
            /**
             * Format: date-time
             * @example 2026-11-22T14:03:23.123Z
             */
            atualizadoEm: string;
            /**
             * Format: date-time
             * @example 2026-11-22T14:03:23.123Z
             */
            criadoEm: string;
            /** @description Tipos assinados; lista vazia = todos os estados da proposta. */
            eventos: string[];
            saude?: {
              /** @description true depois de 3 falhas seguidas: uma tentativa por vez, 1 s entre elas, até uma resposta 2xx. */
              contido: boolean;
              /**
               * Format: date-time
               * @example 2026-11-22T14:03:23.123Z
               */
              contidoDesde?: string;
              /** @description Entregas FALHOU (podem ser reenviadas). */
              falhas: number;
              /** @description Tentativas seguidas que falharam (zera numa resposta 2xx). */
              falhasSeguidas: number;
              /** @description Entregas PENDENTE (na fila ou aguardando nova tentativa). */
              pendentes: number;
              /**
               * Format: date-time
               * @example 2026-11-22T14:03:23.123Z
               */
              ultimaFalhaEm?: string;
              /** @description Tempo esgotado, conexão recusada, HTTP 500… */
              ultimaFalhaMotivo?: string;
              /**
               * Format: date-time
               * @description Última tentativa respondida com 2xx.
               * @example 2026-11-22T14:03:23.123Z
               */
              ultimoSucessoEm?: string;
            };
            /** @description Prefixo `whsec_`. Mostrado somente no registro e na rotação; guarde-o num cofre de segredos. */
            segredo?: string;
            /**
             * Format: date-time
             * @description Durante a rotação: até quando o segredo anterior ainda assina.
             * @example 2026-11-22T14:03:23.123Z
             */
            segredoAnteriorValidoAte?: string;
            url: string;
          };
        };
      };
      /** @description Webhook criado; `segredo` aparece somente aqui. */
      201: {
        headers: {
          'Cache-Control'?: 'no-store';
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "ambiente": "SANDBOX",
           *       "url": "https://hooks.fintech.example/consigna",
           *       "eventos": [],
           *       "ativo": true,
           *       "criadoEm": "2026-11-22T14:03:23.123Z",
           *       "atualizadoEm": "2026-11-22T14:03:23.123Z",
           *       "segredo": "whsec_5G1nVb0oYl7m3Q9sJ2xT8aZkR4cW6eH1uD0pF7yN3iM="
           *     }
           */
          'application/json': {
            /** @enum {string} */
            ambiente: 'SANDBOX' | 'REAL';
            /** @description Sempre true: o serviço nunca desativa um webhook sozinho. */
            ativo: boolean;
            /**
             * Format: date-time
             * @example 2026-11-22T14:03:23.123Z
             */
            atualizadoEm: string;
            /**
             * Format: date-time
             * @example 2026-11-22T14:03:23.123Z
             */
            criadoEm: string;
            /** @description Tipos assinados; lista vazia = todos os estados da proposta. */
            eventos: string[];
            saude?: {
              /** @description true depois de 3 falhas seguidas: uma tentativa por vez, 1 s entre elas, até uma resposta 2xx. */
              contido: boolean;
              /**
               * Format: date-time
               * @example 2026-11-22T14:03:23.123Z
               */
              contidoDesde?: string;
              /** @description Entregas FALHOU (podem ser reenviadas). */
              falhas: number;
              /** @description Tentativas seguidas que falharam (zera numa resposta 2xx). */
              falhasSeguidas: number;
              /** @description Entregas PENDENTE (na fila ou aguardando nova tentativa). */
              pendentes: number;
              /**
               * Format: date-time
               * @example 2026-11-22T14:03:23.123Z
               */
              ultimaFalhaEm?: string;
              /** @description Tempo esgotado, conexão recusada, HTTP 500… */
              ultimaFalhaMotivo?: string;
              /**
               * Format: date-time
               * @description Última tentativa respondida com 2xx.
               * @example 2026-11-22T14:03:23.123Z
               */
              ultimoSucessoEm?: string;
            };
            /** @description Prefixo `whsec_`. Mostrado somente no registro e na rotação; guarde-o num cofre de segredos. */
            segredo?: string;
            /**
             * Format: date-time
             * @description Durante a rotação: até quando o segredo anterior ainda assina.
             * @example 2026-11-22T14:03:23.123Z
             */
            segredoAnteriorValidoAte?: string;
            url: string;
          };
        };
      };
      /** @description URL ou lista de eventos inválida. */
      400: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "url_invalida",
           *       "message": "URL inválida.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'url_invalida' | 'eventos_invalidos' | 'requisicao_invalida';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Token ausente, inválido ou expirado. */
      401: {
        headers: {
          /** @description Desafio Bearer: `Bearer realm="consigna", error="invalid_token", error_description="..."`. */
          'WWW-Authenticate'?: string;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "unauthorized",
           *       "message": "Token de acesso ausente, inválido ou expirado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'unauthorized';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Canal inativo ou IP fora da lista de IPs permitidos do canal. */
      403: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "forbidden",
           *       "message": "Canal inativo ou endereço IP não autorizado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'forbidden';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Corpo acima do limite (64 KB). */
      413: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "corpo_muito_grande",
           *       "message": "Corpo da requisição acima do limite permitido.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'corpo_muito_grande';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Limite de requisições do canal excedido. */
      429: {
        headers: {
          'RateLimit-Limit'?: number;
          'RateLimit-Remaining'?: number;
          'RateLimit-Reset'?: number;
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "limite_excedido",
           *       "message": "Limite de requisições excedido. Aguarde e tente novamente.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'limite_excedido';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Erro inesperado; a resposta nunca traz detalhes internos. */
      500: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "erro_interno",
           *       "message": "Erro interno. Tente novamente; se persistir, informe o requestId ao suporte.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'erro_interno';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Banco de dados indisponível; repita em instantes. */
      503: {
        headers: {
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "db_unavailable",
           *       "message": "Banco de dados indisponível no momento. Tente novamente em instantes.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'db_unavailable';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
    };
  };
  removerWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Removido. */
      204: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Corpo malformado (JSON inválido, tipo de conteúdo não suportado). */
      400: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "requisicao_invalida",
           *       "message": "Requisição inválida.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'requisicao_invalida';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Token ausente, inválido ou expirado. */
      401: {
        headers: {
          /** @description Desafio Bearer: `Bearer realm="consigna", error="invalid_token", error_description="..."`. */
          'WWW-Authenticate'?: string;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "unauthorized",
           *       "message": "Token de acesso ausente, inválido ou expirado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'unauthorized';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Canal inativo ou IP fora da lista de IPs permitidos do canal. */
      403: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "forbidden",
           *       "message": "Canal inativo ou endereço IP não autorizado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'forbidden';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Nenhum webhook registrado para o canal. */
      404: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "nao_encontrado",
           *       "message": "Recurso não encontrado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'nao_encontrado';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Corpo acima do limite (64 KB). */
      413: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "corpo_muito_grande",
           *       "message": "Corpo da requisição acima do limite permitido.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'corpo_muito_grande';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Limite de requisições do canal excedido. */
      429: {
        headers: {
          'RateLimit-Limit'?: number;
          'RateLimit-Remaining'?: number;
          'RateLimit-Reset'?: number;
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "limite_excedido",
           *       "message": "Limite de requisições excedido. Aguarde e tente novamente.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'limite_excedido';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Erro inesperado; a resposta nunca traz detalhes internos. */
      500: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "erro_interno",
           *       "message": "Erro interno. Tente novamente; se persistir, informe o requestId ao suporte.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'erro_interno';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Banco de dados indisponível; repita em instantes. */
      503: {
        headers: {
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "db_unavailable",
           *       "message": "Banco de dados indisponível no momento. Tente novamente em instantes.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'db_unavailable';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
    };
  };
  listarEntregas: {
    parameters: {
      query?: {
        /**
         * @description Só eventos que ocorreram antes deste instante (exclusive).
         * @example 2026-11-22T14:03:23.123Z
         */
        ate?: string;
        /** @description `proximoCursor` da página anterior. */
        cursor?: string;
        /**
         * @description Só eventos que ocorreram a partir deste instante (inclusive).
         * @example 2026-11-22T14:03:23.123Z
         */
        desde?: string;
        /** @description Só a entrega deste evento. */
        eventoId?: string;
        /** @description De 1 a 100; padrão 20. */
        limite?: number;
        /** @description Só entregas de eventos deste link. */
        linkId?: string;
        /** @description Filtro: PENDENTE, FALHOU ou ENTREGUE. */
        status?: 'PENDENTE' | 'FALHOU' | 'ENTREGUE';
        /** @description Só entregas de eventos deste tipo. */
        tipo?:
          | 'proposta.criada'
          | 'proposta.aguardando_formalizacao'
          | 'proposta.formalizada'
          | 'proposta.aprovada'
          | 'proposta.recusada'
          | 'proposta.cancelada'
          | 'proposta.falha';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Entregas do canal. */
      200: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            entregas: {
              /**
               * Format: date-time
               * @example 2026-11-22T14:03:23.123Z
               */
              criadoEm: string;
              /**
               * Format: date-time
               * @example 2026-11-22T14:03:23.123Z
               */
              entregueEm?: string;
              /** Format: uuid */
              eventoId: string;
              /** Format: uuid */
              id: string;
              /**
               * Format: date-time
               * @description Somente em PENDENTE.
               * @example 2026-11-22T14:03:23.123Z
               */
              proximaTentativaEm?: string;
              /** @enum {string} */
              status: 'PENDENTE' | 'FALHOU' | 'ENTREGUE';
              /** @description As tentativas da série atual (o limite é 7): volta a zero num reenvio manual ou na recuperação em lote. Todas as tentativas desde a criação estão em `tentativasTotais`. */
              tentativas: number;
              /** @description Todas as tentativas da entrega, somando as séries de antes de cada reenvio (manual ou em lote) e a atual; igual a `tentativas` enquanto a entrega nunca foi reenviada. */
              tentativasTotais: number;
              tipo: string;
              ultimaLatenciaMs?: number;
              /**
               * Format: date-time
               * @example 2026-11-22T14:03:23.123Z
               */
              ultimaTentativaEm?: string;
              /** @description Texto curto: tempo esgotado, conexão recusada, HTTP 500, endereço recusado… */
              ultimoErro?: string;
              ultimoHttpStatus?: number;
            }[];
            /** @description Ausente na última página. */
            proximoCursor?: string;
          };
        };
      };
      /** @description Parâmetro inválido (o `code` diz qual) ou `desde` que não é anterior a `ate`. */
      400: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "status_invalido",
           *       "message": "Status inválido.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code:
              | 'status_invalido'
              | 'limite_invalido'
              | 'cursor_invalido'
              | 'tipo_invalido'
              | 'evento_id_invalido'
              | 'link_id_invalido'
              | 'desde_invalido'
              | 'ate_invalido'
              | 'periodo_invalido';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Token ausente, inválido ou expirado. */
      401: {
        headers: {
          /** @description Desafio Bearer: `Bearer realm="consigna", error="invalid_token", error_description="..."`. */
          'WWW-Authenticate'?: string;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "unauthorized",
           *       "message": "Token de acesso ausente, inválido ou expirado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'unauthorized';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Canal inativo ou IP fora da lista de IPs permitidos do canal. */
      403: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "forbidden",
           *       "message": "Canal inativo ou endereço IP não autorizado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'forbidden';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Nenhum webhook registrado para o canal. */
      404: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "nao_encontrado",
           *       "message": "Recurso não encontrado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'nao_encontrado';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Corpo acima do limite (64 KB). */
      413: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "corpo_muito_grande",
           *       "message": "Corpo da requisição acima do limite permitido.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'corpo_muito_grande';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Limite de requisições do canal excedido. */
      429: {
        headers: {
          'RateLimit-Limit'?: number;
          'RateLimit-Remaining'?: number;
          'RateLimit-Reset'?: number;
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "limite_excedido",
           *       "message": "Limite de requisições excedido. Aguarde e tente novamente.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'limite_excedido';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Erro inesperado; a resposta nunca traz detalhes internos. */
      500: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "erro_interno",
           *       "message": "Erro interno. Tente novamente; se persistir, informe o requestId ao suporte.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'erro_interno';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Banco de dados indisponível; repita em instantes. */
      503: {
        headers: {
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "db_unavailable",
           *       "message": "Banco de dados indisponível no momento. Tente novamente em instantes.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'db_unavailable';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
    };
  };
  consultarEntrega: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id da entrega. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A entrega e suas tentativas. */
      200: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": "019a7c3e-9a1b-7c3d-8e2f-1a2b3c4d5e6f",
           *       "eventoId": "019a7c3e-99f0-7aa1-b2c3-d4e5f6a7b8c9",
           *       "tipo": "proposta.aprovada",
           *       "status": "ENTREGUE",
           *       "tentativas": 1,
           *       "tentativasTotais": 3,
           *       "ultimoHttpStatus": 200,
           *       "ultimaLatenciaMs": 38,
           *       "ultimaTentativaEm": "2026-11-22T15:10:02.480Z",
           *       "entregueEm": "2026-11-22T15:10:02.480Z",
           *       "criadoEm": "2026-11-22T14:03:23.123Z",
           *       "historico": [
           *         {
           *           "numero": 1,
           *           "ordem": 1,
           *           "reenvio": 0,
           *           "tentadaEm": "2026-11-22T14:03:24.200Z",
           *           "httpStatus": 503,
           *           "latenciaMs": 12,
           *           "erro": "HTTP 503",
           *           "corpoResposta": "{\"erro\":\"manutenção\"}",
           *           "corpoRespostaTruncado": false
           *         },
           *         {
           *           "numero": 2,
           *           "ordem": 2,
           *           "reenvio": 0,
           *           "tentadaEm": "2026-11-22T14:04:25.010Z",
           *           "httpStatus": 200,
           *           "latenciaMs": 41,
           *           "corpoRespostaTruncado": false
           *         },
           *         {
           *           "numero": 1,
           *           "ordem": 3,
           *           "reenvio": 1,
           *           "tentadaEm": "2026-11-22T15:10:02.480Z",
           *           "httpStatus": 200,
           *           "latenciaMs": 38,
           *           "corpoRespostaTruncado": false
           *         }
           *       ]
           *     }
           */
          'application/json': {
            /**
             * Format: date-time
             * @example 2026-11-22T14:03:23.123Z
             */
            criadoEm: string;
            /**
             * Format: date-time
             * @example 2026-11-22T14:03:23.123Z
             */
            entregueEm?: string;
            /** Format: uuid */
            eventoId: string;
            /** @description As tentativas, da mais antiga à mais recente (as 100 mais recentes, se houver mais). */
            historico: {
              /** @description Os primeiros 4 KiB (4.096 bytes) do corpo que o seu endpoint respondeu, como texto UTF-8 (bytes inválidos e NUL viram U+FFFD). Ausente quando a resposta não teve corpo. */
              corpoResposta?: string;
              /** @description true quando o corpo tinha mais de 4 KiB e `corpoResposta` traz só o começo. */
              corpoRespostaTruncado: boolean;
              /** @description Somente nas tentativas que falharam; o mesmo texto de `ultimoErro`. */
              erro?: string;
              /** @description Ausente quando não houve resposta (tempo esgotado, conexão recusada…). */
              httpStatus?: number;
              latenciaMs: number;
              /** @description Igual a `X-Service-Delivery-Attempt` daquela tentativa: o número dela na sua série, que recomeça em 1 a cada reenvio. */
              numero: number;
              /** @description O número da tentativa em todo o histórico da entrega, na ordem em que aconteceram, somando as séries: depois de sete falhas, o reenvio é a de `ordem` 8 (e `numero` 1). A mais recente tem `ordem` igual a `tentativasTotais`. */
              ordem: number;
              /** @description A série da tentativa: 0 antes de qualquer reenvio, 1 depois do primeiro reenvio (manual ou em lote), e assim por diante. */
              reenvio: number;
              /**
               * Format: date-time
               * @description Quando a tentativa terminou.
               * @example 2026-11-22T14:03:23.123Z
               */
              tentadaEm: string;
            }[];
            /** Format: uuid */
            id: string;
            /**
             * Format: date-time
             * @description Somente em PENDENTE.
             * @example 2026-11-22T14:03:23.123Z
             */
            proximaTentativaEm?: string;
            /** @enum {string} */
            status: 'PENDENTE' | 'FALHOU' | 'ENTREGUE';
            /** @description As tentativas da série atual (o limite é 7): volta a zero num reenvio manual ou na recuperação em lote. Todas as tentativas desde a criação estão em `tentativasTotais`. */
            tentativas: number;
            /** @description Todas as tentativas da entrega, somando as séries de antes de cada reenvio (manual ou em lote) e a atual; igual a `tentativas` enquanto a entrega nunca foi reenviada. */
            tentativasTotais: number;
            tipo: string;
            ultimaLatenciaMs?: number;
            /**
             * Format: date-time
             * @example 2026-11-22T14:03:23.123Z
             */
            ultimaTentativaEm?: string;
            /** @description Texto curto: tempo esgotado, conexão recusada, HTTP 500, endereço recusado… */
            ultimoErro?: string;
            ultimoHttpStatus?: number;
          };
        };
      };
      /** @description Corpo malformado (JSON inválido, tipo de conteúdo não suportado). */
      400: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "requisicao_invalida",
           *       "message": "Requisição inválida.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'requisicao_invalida';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Token ausente, inválido ou expirado. */
      401: {
        headers: {
          /** @description Desafio Bearer: `Bearer realm="consigna", error="invalid_token", error_description="..."`. */
          'WWW-Authenticate'?: string;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "unauthorized",
           *       "message": "Token de acesso ausente, inválido ou expirado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'unauthorized';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Canal inativo ou IP fora da lista de IPs permitidos do canal. */
      403: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "forbidden",
           *       "message": "Canal inativo ou endereço IP não autorizado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'forbidden';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Entrega inexistente, de outro canal, id que não é uuid, ou nenhum webhook registrado. */
      404: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "nao_encontrado",
           *       "message": "Recurso não encontrado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'nao_encontrado';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Corpo acima do limite (64 KB). */
      413: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "corpo_muito_grande",
           *       "message": "Corpo da requisição acima do limite permitido.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'corpo_muito_grande';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Limite de requisições do canal excedido. */
      429: {
        headers: {
          'RateLimit-Limit'?: number;
          'RateLimit-Remaining'?: number;
          'RateLimit-Reset'?: number;
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "limite_excedido",
           *       "message": "Limite de requisições excedido. Aguarde e tente novamente.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'limite_excedido';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Erro inesperado; a resposta nunca traz detalhes internos. */
      500: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "erro_interno",
           *       "message": "Erro interno. Tente novamente; se persistir, informe o requestId ao suporte.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'erro_interno';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Banco de dados indisponível; repita em instantes. */
      503: {
        headers: {
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "db_unavailable",
           *       "message": "Banco de dados indisponível no momento. Tente novamente em instantes.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'db_unavailable';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
    };
  };
  reenviarEntrega: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id da entrega. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A entrega como ficou depois da nova tentativa. */
      200: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /**
             * Format: date-time
             * @example 2026-11-22T14:03:23.123Z
             */
            criadoEm: string;
            /**
             * Format: date-time
             * @example 2026-11-22T14:03:23.123Z
             */
            entregueEm?: string;
            /** Format: uuid */
            eventoId: string;
            /** Format: uuid */
            id: string;
            /**
             * Format: date-time
             * @description Somente em PENDENTE.
             * @example 2026-11-22T14:03:23.123Z
             */
            proximaTentativaEm?: string;
            /** @enum {string} */
            status: 'PENDENTE' | 'FALHOU' | 'ENTREGUE';
            /** @description As tentativas da série atual (o limite é 7): volta a zero num reenvio manual ou na recuperação em lote. Todas as tentativas desde a criação estão em `tentativasTotais`. */
            tentativas: number;
            /** @description Todas as tentativas da entrega, somando as séries de antes de cada reenvio (manual ou em lote) e a atual; igual a `tentativas` enquanto a entrega nunca foi reenviada. */
            tentativasTotais: number;
            tipo: string;
            ultimaLatenciaMs?: number;
            /**
             * Format: date-time
             * @example 2026-11-22T14:03:23.123Z
             */
            ultimaTentativaEm?: string;
            /** @description Texto curto: tempo esgotado, conexão recusada, HTTP 500, endereço recusado… */
            ultimoErro?: string;
            ultimoHttpStatus?: number;
          };
        };
      };
      /** @description Corpo malformado (JSON inválido, tipo de conteúdo não suportado). */
      400: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "requisicao_invalida",
           *       "message": "Requisição inválida.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'requisicao_invalida';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Token ausente, inválido ou expirado. */
      401: {
        headers: {
          /** @description Desafio Bearer: `Bearer realm="consigna", error="invalid_token", error_description="..."`. */
          'WWW-Authenticate'?: string;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "unauthorized",
           *       "message": "Token de acesso ausente, inválido ou expirado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'unauthorized';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Canal inativo ou IP fora da lista de IPs permitidos do canal. */
      403: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "forbidden",
           *       "message": "Canal inativo ou endereço IP não autorizado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'forbidden';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Entrega inexistente, de outro canal, id que não é uuid, ou nenhum webhook registrado. */
      404: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "nao_encontrado",
           *       "message": "Recurso não encontrado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'nao_encontrado';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description A entrega ainda está pendente. */
      409: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "entrega_pendente",
           *       "message": "Requisição inválida.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'entrega_pendente';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Corpo acima do limite (64 KB). */
      413: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "corpo_muito_grande",
           *       "message": "Corpo da requisição acima do limite permitido.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'corpo_muito_grande';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Limite de requisições do canal excedido. */
      429: {
        headers: {
          'RateLimit-Limit'?: number;
          'RateLimit-Remaining'?: number;
          'RateLimit-Reset'?: number;
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "limite_excedido",
           *       "message": "Limite de requisições excedido. Aguarde e tente novamente.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'limite_excedido';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Erro inesperado; a resposta nunca traz detalhes internos. */
      500: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "erro_interno",
           *       "message": "Erro interno. Tente novamente; se persistir, informe o requestId ao suporte.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'erro_interno';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Banco de dados indisponível; repita em instantes. */
      503: {
        headers: {
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "db_unavailable",
           *       "message": "Banco de dados indisponível no momento. Tente novamente em instantes.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'db_unavailable';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
    };
  };
  reenfileirarEntregas: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "status": "FALHOU",
         *       "desde": "2026-11-22T08:00:00Z",
         *       "ate": "2026-11-22T14:00:00Z"
         *     }
         */
        'application/json': {
          /**
           * Format: date-time
           * @description Só eventos que ocorreram antes deste instante (exclusive).
           * @example 2026-11-22T14:03:23.123Z
           */
          ate?: string;
          /**
           * Format: date-time
           * @description Só eventos que ocorreram a partir deste instante (inclusive).
           * @example 2026-11-22T14:03:23.123Z
           */
          desde?: string;
          /**
           * @description Somente FALHOU.
           * @enum {string}
           */
          status: 'FALHOU';
        };
      };
    };
    responses: {
      /** @description Quantas entregas voltaram para a fila. */
      200: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "reenfileiradas": 1843
           *     }
           */
          'application/json': {
            /** @description Entregas que voltaram para a fila. */
            reenfileiradas: number;
          };
        };
      };
      /** @description `status` que não é FALHOU, data inválida, ou `desde` que não é anterior a `ate`. */
      400: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "status_invalido",
           *       "message": "Status inválido.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'status_invalido' | 'desde_invalido' | 'ate_invalido' | 'periodo_invalido' | 'requisicao_invalida';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Token ausente, inválido ou expirado. */
      401: {
        headers: {
          /** @description Desafio Bearer: `Bearer realm="consigna", error="invalid_token", error_description="..."`. */
          'WWW-Authenticate'?: string;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "unauthorized",
           *       "message": "Token de acesso ausente, inválido ou expirado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'unauthorized';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Canal inativo ou IP fora da lista de IPs permitidos do canal. */
      403: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "forbidden",
           *       "message": "Canal inativo ou endereço IP não autorizado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'forbidden';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Nenhum webhook registrado para o canal. */
      404: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "nao_encontrado",
           *       "message": "Recurso não encontrado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'nao_encontrado';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Corpo acima do limite (64 KB). */
      413: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "corpo_muito_grande",
           *       "message": "Corpo da requisição acima do limite permitido.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'corpo_muito_grande';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Limite de requisições do canal excedido. */
      429: {
        headers: {
          'RateLimit-Limit'?: number;
          'RateLimit-Remaining'?: number;
          'RateLimit-Reset'?: number;
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "limite_excedido",
           *       "message": "Limite de requisições excedido. Aguarde e tente novamente.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'limite_excedido';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Erro inesperado; a resposta nunca traz detalhes internos. */
      500: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "erro_interno",
           *       "message": "Erro interno. Tente novamente; se persistir, informe o requestId ao suporte.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'erro_interno';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Banco de dados indisponível; repita em instantes. */
      503: {
        headers: {
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "db_unavailable",
           *       "message": "Banco de dados indisponível no momento. Tente novamente em instantes.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'db_unavailable';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
    };
  };
  simularRetentativas: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description Segundos antes de cada nova tentativa, de 1 a 60, no lugar do agendamento padrão. `null` volta ao agendamento padrão. */
          intervaloSegundos: number | null;
        };
      };
    };
    responses: {
      /** @description As esperas entre tentativas agora em vigor para o canal. */
      200: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "intervalosSegundos": [
           *         5,
           *         5,
           *         5,
           *         5,
           *         5,
           *         5
           *       ]
           *     }
           */
          'application/json': {
            /** @description Espera antes de cada nova tentativa (2ª a 7ª), em segundos, agora em vigor para o canal. */
            intervalosSegundos: number[];
          };
        };
      };
      /** @description `intervaloSegundos` ausente, não inteiro, fora de 1 a 60, ou corpo inválido. */
      400: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "requisicao_invalida",
           *       "message": "Requisição inválida.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'requisicao_invalida';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Token ausente, inválido ou expirado. */
      401: {
        headers: {
          /** @description Desafio Bearer: `Bearer realm="consigna", error="invalid_token", error_description="..."`. */
          'WWW-Authenticate'?: string;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "unauthorized",
           *       "message": "Token de acesso ausente, inválido ou expirado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'unauthorized';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Canal inativo ou IP fora da lista de IPs permitidos do canal. */
      403: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "forbidden",
           *       "message": "Canal inativo ou endereço IP não autorizado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'forbidden';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Nenhum webhook registrado para o canal, ou ambiente REAL. */
      404: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "nao_encontrado",
           *       "message": "Recurso não encontrado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'nao_encontrado';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Corpo acima do limite (64 KB). */
      413: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "corpo_muito_grande",
           *       "message": "Corpo da requisição acima do limite permitido.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'corpo_muito_grande';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Limite de requisições do canal excedido. */
      429: {
        headers: {
          'RateLimit-Limit'?: number;
          'RateLimit-Remaining'?: number;
          'RateLimit-Reset'?: number;
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "limite_excedido",
           *       "message": "Limite de requisições excedido. Aguarde e tente novamente.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'limite_excedido';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Erro inesperado; a resposta nunca traz detalhes internos. */
      500: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "erro_interno",
           *       "message": "Erro interno. Tente novamente; se persistir, informe o requestId ao suporte.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'erro_interno';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Banco de dados indisponível; repita em instantes. */
      503: {
        headers: {
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "db_unavailable",
           *       "message": "Banco de dados indisponível no momento. Tente novamente em instantes.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'db_unavailable';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
    };
  };
  rotacionarSegredo: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Novo segredo e validade do anterior. */
      200: {
        headers: {
          'Cache-Control'?: 'no-store';
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "ambiente": "SANDBOX",
           *       "url": "https://hooks.fintech.example/consigna",
           *       "eventos": [],
           *       "ativo": true,
           *       "criadoEm": "2026-11-22T14:03:23.123Z",
           *       "atualizadoEm": "2026-11-22T14:03:23.123Z",
           *       "segredo": "whsec_5G1nVb0oYl7m3Q9sJ2xT8aZkR4cW6eH1uD0pF7yN3iM="
           *     }
           */
          'application/json': {
            /** @enum {string} */
            ambiente: 'SANDBOX' | 'REAL';
            /** @description Sempre true: o serviço nunca desativa um webhook sozinho. */
            ativo: boolean;
            /**
             * Format: date-time
             * @example 2026-11-22T14:03:23.123Z
             */
            atualizadoEm: string;
            /**
             * Format: date-time
             * @example 2026-11-22T14:03:23.123Z
             */
            criadoEm: string;
            /** @description Tipos assinados; lista vazia = todos os estados da proposta. */
            eventos: string[];
            saude?: {
              /** @description true depois de 3 falhas seguidas: uma tentativa por vez, 1 s entre elas, até uma resposta 2xx. */
              contido: boolean;
              /**
               * Format: date-time
               * @example 2026-11-22T14:03:23.123Z
               */
              contidoDesde?: string;
              /** @description Entregas FALHOU (podem ser reenviadas). */
              falhas: number;
              /** @description Tentativas seguidas que falharam (zera numa resposta 2xx). */
              falhasSeguidas: number;
              /** @description Entregas PENDENTE (na fila ou aguardando nova tentativa). */
              pendentes: number;
              /**
               * Format: date-time
               * @example 2026-11-22T14:03:23.123Z
               */
              ultimaFalhaEm?: string;
              /** @description Tempo esgotado, conexão recusada, HTTP 500… */
              ultimaFalhaMotivo?: string;
              /**
               * Format: date-time
               * @description Última tentativa respondida com 2xx.
               * @example 2026-11-22T14:03:23.123Z
               */
              ultimoSucessoEm?: string;
            };
            /** @description Prefixo `whsec_`. Mostrado somente no registro e na rotação; guarde-o num cofre de segredos. */
            segredo?: string;
            /**
             * Format: date-time
             * @description Durante a rotação: até quando o segredo anterior ainda assina.
             * @example 2026-11-22T14:03:23.123Z
             */
            segredoAnteriorValidoAte?: string;
            url: string;
          };
        };
      };
      /** @description Corpo malformado (JSON inválido, tipo de conteúdo não suportado). */
      400: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "requisicao_invalida",
           *       "message": "Requisição inválida.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'requisicao_invalida';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Token ausente, inválido ou expirado. */
      401: {
        headers: {
          /** @description Desafio Bearer: `Bearer realm="consigna", error="invalid_token", error_description="..."`. */
          'WWW-Authenticate'?: string;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "unauthorized",
           *       "message": "Token de acesso ausente, inválido ou expirado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'unauthorized';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Canal inativo ou IP fora da lista de IPs permitidos do canal. */
      403: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "forbidden",
           *       "message": "Canal inativo ou endereço IP não autorizado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'forbidden';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Nenhum webhook registrado para o canal. */
      404: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "nao_encontrado",
           *       "message": "Recurso não encontrado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'nao_encontrado';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Corpo acima do limite (64 KB). */
      413: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "corpo_muito_grande",
           *       "message": "Corpo da requisição acima do limite permitido.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'corpo_muito_grande';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Limite de requisições do canal excedido. */
      429: {
        headers: {
          'RateLimit-Limit'?: number;
          'RateLimit-Remaining'?: number;
          'RateLimit-Reset'?: number;
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "limite_excedido",
           *       "message": "Limite de requisições excedido. Aguarde e tente novamente.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'limite_excedido';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Erro inesperado; a resposta nunca traz detalhes internos. */
      500: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "erro_interno",
           *       "message": "Erro interno. Tente novamente; se persistir, informe o requestId ao suporte.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'erro_interno';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Banco de dados indisponível; repita em instantes. */
      503: {
        headers: {
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "db_unavailable",
           *       "message": "Banco de dados indisponível no momento. Tente novamente em instantes.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'db_unavailable';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
    };
  };
  enviarEventoTeste: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Resultado da entrega do evento de teste. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "entregue": true,
           *       "httpStatus": 200,
           *       "latenciaMs": 87
           *     }
           */
          'application/json': {
            entregue: boolean;
            erro?: string;
            httpStatus?: number;
            latenciaMs: number;
          };
        };
      };
      /** @description Corpo malformado (JSON inválido, tipo de conteúdo não suportado). */
      400: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "requisicao_invalida",
           *       "message": "Requisição inválida.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'requisicao_invalida';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Token ausente, inválido ou expirado. */
      401: {
        headers: {
          /** @description Desafio Bearer: `Bearer realm="consigna", error="invalid_token", error_description="..."`. */
          'WWW-Authenticate'?: string;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "unauthorized",
           *       "message": "Token de acesso ausente, inválido ou expirado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'unauthorized';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Canal inativo ou IP fora da lista de IPs permitidos do canal. */
      403: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "forbidden",
           *       "message": "Canal inativo ou endereço IP não autorizado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'forbidden';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Nenhum webhook registrado para o canal. */
      404: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "nao_encontrado",
           *       "message": "Recurso não encontrado.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'nao_encontrado';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Corpo acima do limite (64 KB). */
      413: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "corpo_muito_grande",
           *       "message": "Corpo da requisição acima do limite permitido.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'corpo_muito_grande';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Limite de requisições do canal excedido. */
      429: {
        headers: {
          'RateLimit-Limit'?: number;
          'RateLimit-Remaining'?: number;
          'RateLimit-Reset'?: number;
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "limite_excedido",
           *       "message": "Limite de requisições excedido. Aguarde e tente novamente.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'limite_excedido';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Erro inesperado; a resposta nunca traz detalhes internos. */
      500: {
        headers: {
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "erro_interno",
           *       "message": "Erro interno. Tente novamente; se persistir, informe o requestId ao suporte.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'erro_interno';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
      /** @description Banco de dados indisponível; repita em instantes. */
      503: {
        headers: {
          /** @description Segundos até uma nova tentativa ser aceita. */
          'Retry-After'?: number;
          /** @description Identificador da requisição; repetido como `requestId` nos erros. */
          'X-Request-Id'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": "db_unavailable",
           *       "message": "Banco de dados indisponível no momento. Tente novamente em instantes.",
           *       "requestId": "0d4c1a57-5f5e-4a0b-9a43-1f0a3d9e2b11"
           *     }
           */
          'application/json': {
            /**
             * @description Código estável para tratamento programático.
             * @enum {string}
             */
            code: 'db_unavailable';
            /** @description Mensagem em pt-BR. */
            message: string;
            /** @description Igual ao cabeçalho X-Request-Id. */
            requestId?: string;
          };
        };
      };
    };
  };
}
