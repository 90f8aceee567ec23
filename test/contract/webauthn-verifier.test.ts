import { SimpleWebAuthnVerifier } from '../../src/adapters/webauthn/simple-webauthn-verifier';
import { describeWebAuthnVerifierContract, TEST_RP } from './webauthn-verifier.contract';

describeWebAuthnVerifierContract('@simplewebauthn/server', new SimpleWebAuthnVerifier(TEST_RP));
