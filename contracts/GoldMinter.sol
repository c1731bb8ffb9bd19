// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {SignatureChecker} from "@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol";
import {EnumerableSet} from "@openzeppelin/contracts/utils/structs/EnumerableSet.sol";
import {GoldToken} from "./GoldToken.sol";

/// @title GoldMinter: the issuer's controls
/// @notice The only holder of GoldToken's roles. It mints, burns, freezes and pauses only
/// on EIP-712 signatures of keys that people hold, collected off chain and relayed by
/// anyone (as a Safe executes its owners' signatures): the relayer that sends the
/// transaction holds no authority of its own.
/// - A mint needs M-of-N approver signatures over its MintIntent (M by amount,
///   requiredApprovals), once per order id, before its deadline, within a refilling rate
///   limit (as Paxos's SupplyControl) and while supply + amount <= the reserve the
///   custodians attested (as Chainlink's Secure Mint).
/// - A redemption burn needs approvers' signatures over its RedemptionIntent and burns
///   from the redemption address only, once per redemption id.
/// - Freeze, unfreeze, pause and unpause need approvers' signatures, once per operation id.
/// - The reserve is the sum over vaults of the latest bar list each vault's custodian
///   signed; anyone may relay a signed list, only a newer one per vault is accepted.
///   Custodian keys are registered by control changes; a vault is bound to the registered
///   custodian whose list for it is attested first, and afterwards only that custodian
///   attests it (setCustodian rebinds it). attestAndMint carries the list with the mint.
/// - Control changes (approvers, the approval rule, the rate limit, custodians, admins,
///   the redemption address) need a quorum of admin signatures (at least 2) over a
///   ControlChange, once per change id.
/// Typed data, bar hashing and vault ids: lib/chain/typedData.ts.
contract GoldMinter is EIP712 {
    using EnumerableSet for EnumerableSet.AddressSet;
    using EnumerableSet for EnumerableSet.Bytes32Set;

    // ---- typed data (EIP-712 domain: name "GoldMinter", version "1", chainId, this contract)

    struct MintIntent {
        bytes32 orderId;
        address to;
        uint256 amount;
        bytes32 barsHash;
        uint256 deadline;
    }

    struct RedemptionIntent {
        bytes32 redemptionId;
        address from;
        uint256 amount;
        bytes32 barsHash;
        uint256 deadline;
    }

    struct FreezeIntent {
        bytes32 operationId;
        address account;
        bool frozen;
        uint256 deadline;
    }

    struct PauseIntent {
        bytes32 operationId;
        bool paused;
        uint256 deadline;
    }

    /// @dev vault = keccak256 of the vault's name in UTF-8; asOf in Unix seconds;
    /// barsRoot = the OpenZeppelin StandardMerkleTree root of the bars (see typedData.ts)
    struct BarList {
        bytes32 vault;
        uint256 asOf;
        bytes32 barsRoot;
        uint256 totalFineWei;
    }

    /// @dev action names one of the changes below; params is its arguments, abi-encoded
    struct ControlChange {
        bytes32 changeId;
        string action;
        bytes params;
        uint256 deadline;
    }

    bytes32 public constant MINT_INTENT_TYPEHASH =
        keccak256("MintIntent(bytes32 orderId,address to,uint256 amount,bytes32 barsHash,uint256 deadline)");
    bytes32 public constant REDEMPTION_INTENT_TYPEHASH =
        keccak256("RedemptionIntent(bytes32 redemptionId,address from,uint256 amount,bytes32 barsHash,uint256 deadline)");
    bytes32 public constant FREEZE_INTENT_TYPEHASH =
        keccak256("FreezeIntent(bytes32 operationId,address account,bool frozen,uint256 deadline)");
    bytes32 public constant PAUSE_INTENT_TYPEHASH = keccak256("PauseIntent(bytes32 operationId,bool paused,uint256 deadline)");
    bytes32 public constant BAR_LIST_TYPEHASH =
        keccak256("BarList(bytes32 vault,uint256 asOf,bytes32 barsRoot,uint256 totalFineWei)");
    bytes32 public constant CONTROL_CHANGE_TYPEHASH =
        keccak256("ControlChange(bytes32 changeId,string action,bytes params,uint256 deadline)");

    /// @notice One signature: its signer (an EOA, or a contract wallet through ERC-1271) and
    /// the signature bytes. Lists of them are sorted by signer, ascending, no signer twice.
    struct Approval {
        address signer;
        bytes signature;
    }

    /// @notice How many approver signatures an intent needs: amount < largeAmount needs
    /// approvalsBelow, amount >= largeAmount needs approvalsAtOrAbove; a freeze, unfreeze,
    /// pause or unpause needs complianceApprovals.
    struct ApprovalRule {
        uint256 largeAmount;
        uint256 approvalsBelow;
        uint256 approvalsAtOrAbove;
        uint256 complianceApprovals;
    }

    struct VaultReserve {
        address custodian;
        uint256 asOf;
        bytes32 barsRoot;
        uint256 totalFineWei;
    }

    /// @notice Everything the deployment sets; no key keeps any authority after it.
    struct Setup {
        address[] approvers;
        ApprovalRule approvalRule;
        address[] admins;
        uint256 adminThreshold;
        uint256 rateCapacity;
        uint256 rateRefillPerSecond;
        /// @dev the custodian keys registered at deployment (vaults bind at their first attestation)
        address[] custodians;
        address redemptionAddress;
    }

    /// @notice A control change needs at least this many admins: never one alone.
    uint256 public constant MIN_ADMIN_THRESHOLD = 2;
    /// @notice How far a bar list's asOf may be ahead of the chain's clock.
    uint256 public constant MAX_AS_OF_SKEW = 1 hours;

    GoldToken public immutable token;

    EnumerableSet.AddressSet private _approvers;
    EnumerableSet.AddressSet private _admins;
    EnumerableSet.Bytes32Set private _vaultIds;
    EnumerableSet.AddressSet private _custodians;
    ApprovalRule private _rule;
    uint256 private _adminThreshold;
    address private _redemptionAddress;

    uint256 private _rateCapacity;
    uint256 private _rateRefillPerSecond;
    uint256 private _rateAvailable;
    uint256 private _rateUpdatedAt;

    mapping(bytes32 vault => VaultReserve) private _vaults;
    uint256 private _reserve;

    mapping(bytes32 operationId => bool) private _usedOperations;
    mapping(bytes32 changeId => bool) private _appliedChanges;

    event ReserveAttested(bytes32 indexed vault, uint256 asOf, bytes32 barsRoot, uint256 totalFineWei, uint256 reserve);
    /// @dev changeId 0: a setting of the deployment
    event ControlChanged(bytes32 indexed changeId, string action, bytes params);
    event Frozen(bytes32 indexed operationId, address indexed account);
    event Unfrozen(bytes32 indexed operationId, address indexed account);
    event Paused(bytes32 indexed operationId);
    event Unpaused(bytes32 indexed operationId);

    error IntentExpired(uint256 deadline, uint256 timestamp);
    error OrderAlreadyMinted(bytes32 orderId);
    error RedemptionAlreadyBurned(bytes32 redemptionId);
    error OperationAlreadyUsed(bytes32 operationId);
    error ChangeAlreadyApplied(bytes32 changeId);
    error ZeroAddress();
    error ZeroAmount();
    error InvalidRecipient(address to);
    error AccountFrozen(address account);
    error TokenPaused();
    error PauseUnchanged(bool paused);
    error NotRedemptionAddress(address from, address redemptionAddress);
    error InsufficientRedemptionBalance(uint256 balance, uint256 amount);
    error NotEnoughSignatures(uint256 given, uint256 required);
    error DuplicateSigner(address signer);
    error SignersNotAscending(address signer);
    error NotAnApprover(address signer);
    error NotAnAdmin(address signer);
    error InvalidSignature(address signer);
    error RateLimitExceeded(uint256 amount, uint256 available);
    error ReserveExceeded(uint256 supply, uint256 amount, uint256 reserve);
    error UnknownVault(bytes32 vault);
    error StaleAttestation(bytes32 vault, uint256 asOf, uint256 latestAsOf);
    error AttestationFromFuture(uint256 asOf, uint256 timestamp);
    error InvalidCustodianSignature(bytes32 vault, address custodian);
    error NotACustodian(address account);
    error AlreadyCustodian(address account);
    error NotVaultCustodian(bytes32 vault, address custodian, address given);
    error UnknownControlAction(string action);
    error InvalidControlParams(string action);
    error AlreadyApprover(address account);
    error AlreadyAdmin(address account);
    error InvalidApprovalRule();
    error QuorumUnreachable(uint256 required, uint256 signers);
    error InvalidAdminThreshold(uint256 threshold, uint256 admins);
    error ZeroVault();
    error NotTokenAdmin();

    /// @param token_ a GoldToken whose DEFAULT_ADMIN_ROLE this contract holds (deploy the
    /// token with this contract's address, known in advance, as its admin). The constructor
    /// takes the minter, burner, freezer and pauser roles and renounces the admin role: the
    /// token's roles are final, held by this contract alone.
    constructor(GoldToken token_, Setup memory setup) EIP712("GoldMinter", "1") {
        token = token_;
        bytes32 adminRole = token_.DEFAULT_ADMIN_ROLE();
        if (!token_.hasRole(adminRole, address(this))) revert NotTokenAdmin();
        token_.grantRole(token_.MINTER_ROLE(), address(this));
        token_.grantRole(token_.BURNER_ROLE(), address(this));
        token_.grantRole(token_.FREEZER_ROLE(), address(this));
        token_.grantRole(token_.PAUSER_ROLE(), address(this));
        token_.renounceRole(adminRole, address(this));

        for (uint256 i; i < setup.approvers.length; ++i) {
            _apply(bytes32(0), "addApprover", abi.encode(setup.approvers[i]));
        }
        ApprovalRule memory r = setup.approvalRule;
        _apply(
            bytes32(0),
            "setApprovalRule",
            abi.encode(r.largeAmount, r.approvalsBelow, r.approvalsAtOrAbove, r.complianceApprovals)
        );
        for (uint256 i; i < setup.admins.length; ++i) {
            _apply(bytes32(0), "addAdmin", abi.encode(setup.admins[i]));
        }
        _apply(bytes32(0), "setAdminThreshold", abi.encode(setup.adminThreshold));
        _apply(bytes32(0), "setRateLimit", abi.encode(setup.rateCapacity, setup.rateRefillPerSecond));
        _rateAvailable = setup.rateCapacity;
        for (uint256 i; i < setup.custodians.length; ++i) {
            _apply(bytes32(0), "addCustodian", abi.encode(setup.custodians[i]));
        }
        _apply(bytes32(0), "setRedemptionAddress", abi.encode(setup.redemptionAddress));
    }

    // ---- mints and burns

    /// @notice Mints intent.amount to intent.to for the order intent.orderId, given enough
    /// approvers' signatures over the intent (requiredApprovals(intent.amount)).
    function mint(MintIntent calldata intent, Approval[] calldata approvals) external {
        _mint(intent, approvals);
    }

    /// @notice mint, carrying the bar list that backs it, so a relayer needs one transaction:
    /// a list newer than the vault's latest is attested first (as attestReserve), the same
    /// list (asOf, barsRoot, totalFineWei) is taken as it stands, an older one reverts.
    function attestAndMint(
        BarList calldata list,
        address custodian,
        bytes calldata custodianSignature,
        MintIntent calldata intent,
        Approval[] calldata approvals
    ) external {
        VaultReserve storage v = _vaults[list.vault];
        bool same = v.custodian != address(0) && list.asOf == v.asOf && list.barsRoot == v.barsRoot
            && list.totalFineWei == v.totalFineWei;
        if (!same) _attest(list, custodian, custodianSignature);
        _mint(intent, approvals);
    }

    function _mint(MintIntent calldata intent, Approval[] calldata approvals) private {
        _checkDeadline(intent.deadline);
        if (token.isMinted(intent.orderId)) revert OrderAlreadyMinted(intent.orderId);
        address to = intent.to;
        if (to == address(0)) revert ZeroAddress();
        if (to == address(token) || to == address(this)) revert InvalidRecipient(to);
        if (intent.amount == 0) revert ZeroAmount();
        if (token.paused()) revert TokenPaused();
        if (token.isFrozen(to)) revert AccountFrozen(to);
        _checkSignatures(hashMintIntent(intent), approvals, requiredApprovals(intent.amount), false);
        _consumeRateLimit(intent.amount);
        uint256 supply = token.totalSupply();
        if (supply + intent.amount > _reserve) revert ReserveExceeded(supply, intent.amount, _reserve);
        token.mint(to, intent.amount, intent.orderId);
    }

    /// @notice Burns intent.amount from the redemption address for the redemption
    /// intent.redemptionId, given enough approvers' signatures over the intent.
    function burn(RedemptionIntent calldata intent, Approval[] calldata approvals) external {
        _checkDeadline(intent.deadline);
        if (token.isBurned(intent.redemptionId)) revert RedemptionAlreadyBurned(intent.redemptionId);
        if (intent.from != _redemptionAddress) revert NotRedemptionAddress(intent.from, _redemptionAddress);
        if (intent.amount == 0) revert ZeroAmount();
        if (token.paused()) revert TokenPaused();
        if (token.isFrozen(intent.from)) revert AccountFrozen(intent.from);
        uint256 balance = token.balanceOf(intent.from);
        if (balance < intent.amount) revert InsufficientRedemptionBalance(balance, intent.amount);
        _checkSignatures(hashRedemptionIntent(intent), approvals, requiredApprovals(intent.amount), false);
        token.burn(intent.from, intent.amount, intent.redemptionId);
    }

    // ---- compliance

    function setFrozen(FreezeIntent calldata intent, Approval[] calldata approvals) external {
        _checkDeadline(intent.deadline);
        _useOperation(intent.operationId);
        if (intent.account == address(0)) revert ZeroAddress();
        _checkSignatures(hashFreezeIntent(intent), approvals, _rule.complianceApprovals, false);
        if (intent.frozen) {
            token.freeze(intent.account);
            emit Frozen(intent.operationId, intent.account);
        } else {
            token.unfreeze(intent.account);
            emit Unfrozen(intent.operationId, intent.account);
        }
    }

    function setPaused(PauseIntent calldata intent, Approval[] calldata approvals) external {
        _checkDeadline(intent.deadline);
        _useOperation(intent.operationId);
        if (token.paused() == intent.paused) revert PauseUnchanged(intent.paused);
        _checkSignatures(hashPauseIntent(intent), approvals, _rule.complianceApprovals, false);
        if (intent.paused) {
            token.pause();
            emit Paused(intent.operationId);
        } else {
            token.unpause();
            emit Unpaused(intent.operationId);
        }
    }

    // ---- reserves

    /// @notice Records a bar list signed by `custodian`, a registered custodian key: the
    /// vault's reserve becomes list.totalFineWei. A vault not bound yet is bound to that
    /// custodian; a bound vault takes lists of its own custodian only. Only a list newer
    /// (asOf) than the vault's latest counts.
    function attestReserve(BarList calldata list, address custodian, bytes calldata signature) external {
        _attest(list, custodian, signature);
    }

    function _attest(BarList calldata list, address custodian, bytes calldata signature) private {
        if (list.vault == bytes32(0)) revert ZeroVault();
        if (!_custodians.contains(custodian)) revert NotACustodian(custodian);
        VaultReserve storage v = _vaults[list.vault];
        if (v.custodian == address(0)) {
            _vaultIds.add(list.vault);
            v.custodian = custodian;
        } else if (v.custodian != custodian) {
            revert NotVaultCustodian(list.vault, v.custodian, custodian);
        }
        if (list.asOf <= v.asOf) revert StaleAttestation(list.vault, list.asOf, v.asOf);
        if (list.asOf > block.timestamp + MAX_AS_OF_SKEW) revert AttestationFromFuture(list.asOf, block.timestamp);
        if (!SignatureChecker.isValidSignatureNowCalldata(custodian, hashBarList(list), signature)) {
            revert InvalidCustodianSignature(list.vault, custodian);
        }
        _reserve = _reserve - v.totalFineWei + list.totalFineWei;
        v.asOf = list.asOf;
        v.barsRoot = list.barsRoot;
        v.totalFineWei = list.totalFineWei;
        emit ReserveAttested(list.vault, list.asOf, list.barsRoot, list.totalFineWei, _reserve);
    }

    // ---- control changes

    /// @notice Applies a change signed by adminThreshold admins. Actions and their params
    /// (abi-encoded): addApprover(address), removeApprover(address),
    /// setApprovalRule(uint256 largeAmount, uint256 approvalsBelow, uint256 approvalsAtOrAbove,
    /// uint256 complianceApprovals), setRateLimit(uint256 capacity, uint256 refillPerSecond),
    /// setCustodian(bytes32 vault, address custodian) (rebinds the vault to a registered
    /// custodian; address 0 removes the vault and its reserve, and its next attestation binds it
    /// again), addCustodian(address), removeCustodian(address), addAdmin(address), removeAdmin(address), setAdminThreshold(uint256),
    /// setRedemptionAddress(address).
    function applyControlChange(ControlChange calldata change, Approval[] calldata signatures) external {
        _checkDeadline(change.deadline);
        if (_appliedChanges[change.changeId]) revert ChangeAlreadyApplied(change.changeId);
        _appliedChanges[change.changeId] = true;
        _checkSignatures(hashControlChange(change), signatures, _adminThreshold, true);
        _apply(change.changeId, change.action, change.params);
    }

    // ---- views

    /// @notice How many approver signatures a mint or burn of `amount` (wei) needs.
    function requiredApprovals(uint256 amount) public view returns (uint256) {
        return amount >= _rule.largeAmount ? _rule.approvalsAtOrAbove : _rule.approvalsBelow;
    }

    function approvalRule() external view returns (ApprovalRule memory) {
        return _rule;
    }

    function approvers() external view returns (address[] memory) {
        return _approvers.values();
    }

    function isApprover(address account) external view returns (bool) {
        return _approvers.contains(account);
    }

    function admins() external view returns (address[] memory) {
        return _admins.values();
    }

    function isAdmin(address account) external view returns (bool) {
        return _admins.contains(account);
    }

    function adminThreshold() external view returns (uint256) {
        return _adminThreshold;
    }

    function redemptionAddress() external view returns (address) {
        return _redemptionAddress;
    }

    function rateLimit() external view returns (uint256 capacity, uint256 refillPerSecond) {
        return (_rateCapacity, _rateRefillPerSecond);
    }

    /// @notice What the rate limit lets mint now (the bucket, refilled to this block).
    function availableToMint() public view returns (uint256) {
        uint256 available = _rateAvailable;
        uint256 capacity = _rateCapacity;
        if (available >= capacity) return capacity;
        uint256 rate = _rateRefillPerSecond;
        if (rate == 0) return available;
        uint256 elapsed = block.timestamp - _rateUpdatedAt;
        uint256 room = capacity - available;
        // elapsed * rate <= room exactly when elapsed <= room / rate: no overflow
        return elapsed > room / rate ? capacity : available + elapsed * rate;
    }

    /// @notice The sum of every vault's latest attested total (wei).
    function reserve() public view returns (uint256) {
        return _reserve;
    }

    /// @notice The most a mint could be now: the rate limit's bucket and the reserve's headroom.
    function maxMintable() external view returns (uint256) {
        uint256 supply = token.totalSupply();
        uint256 headroom = _reserve > supply ? _reserve - supply : 0;
        uint256 available = availableToMint();
        return available < headroom ? available : headroom;
    }

    function custodians() external view returns (address[] memory) {
        return _custodians.values();
    }

    function isCustodian(address account) external view returns (bool) {
        return _custodians.contains(account);
    }

    function vaults() external view returns (bytes32[] memory) {
        return _vaultIds.values();
    }

    function vaultReserve(bytes32 vault) external view returns (VaultReserve memory) {
        return _vaults[vault];
    }

    function isOperationUsed(bytes32 operationId) external view returns (bool) {
        return _usedOperations[operationId];
    }

    function isChangeApplied(bytes32 changeId) external view returns (bool) {
        return _appliedChanges[changeId];
    }

    /// @notice The EIP-712 digests the signers sign (for tools that check a signature first).
    function hashMintIntent(MintIntent calldata i) public view returns (bytes32) {
        return _hashTypedDataV4(
            keccak256(abi.encode(MINT_INTENT_TYPEHASH, i.orderId, i.to, i.amount, i.barsHash, i.deadline))
        );
    }

    function hashRedemptionIntent(RedemptionIntent calldata i) public view returns (bytes32) {
        return _hashTypedDataV4(
            keccak256(abi.encode(REDEMPTION_INTENT_TYPEHASH, i.redemptionId, i.from, i.amount, i.barsHash, i.deadline))
        );
    }

    function hashFreezeIntent(FreezeIntent calldata i) public view returns (bytes32) {
        return
            _hashTypedDataV4(keccak256(abi.encode(FREEZE_INTENT_TYPEHASH, i.operationId, i.account, i.frozen, i.deadline)));
    }

    function hashPauseIntent(PauseIntent calldata i) public view returns (bytes32) {
        return _hashTypedDataV4(keccak256(abi.encode(PAUSE_INTENT_TYPEHASH, i.operationId, i.paused, i.deadline)));
    }

    function hashBarList(BarList calldata l) public view returns (bytes32) {
        return _hashTypedDataV4(keccak256(abi.encode(BAR_LIST_TYPEHASH, l.vault, l.asOf, l.barsRoot, l.totalFineWei)));
    }

    function hashControlChange(ControlChange calldata c) public view returns (bytes32) {
        return _hashTypedDataV4(
            keccak256(
                abi.encode(
                    CONTROL_CHANGE_TYPEHASH, c.changeId, keccak256(bytes(c.action)), keccak256(c.params), c.deadline
                )
            )
        );
    }

    // ---- internals

    function _checkDeadline(uint256 deadline) private view {
        if (block.timestamp > deadline) revert IntentExpired(deadline, block.timestamp);
    }

    function _useOperation(bytes32 operationId) private {
        if (_usedOperations[operationId]) revert OperationAlreadyUsed(operationId);
        _usedOperations[operationId] = true;
    }

    /// @dev At least `required` signatures, signers strictly ascending (so none twice), each
    /// an approver (or an admin) whose signature of `digest` is valid: ECDSA for an EOA
    /// (OpenZeppelin's ECDSA refuses high-s and malformed signatures), ERC-1271 for a contract.
    function _checkSignatures(bytes32 digest, Approval[] calldata list, uint256 required, bool byAdmins) private view {
        if (list.length < required) revert NotEnoughSignatures(list.length, required);
        EnumerableSet.AddressSet storage set = byAdmins ? _admins : _approvers;
        address previous;
        for (uint256 i; i < list.length; ++i) {
            address signer = list[i].signer;
            if (i > 0 && signer <= previous) {
                if (signer == previous) revert DuplicateSigner(signer);
                revert SignersNotAscending(signer);
            }
            if (!set.contains(signer)) {
                if (byAdmins) revert NotAnAdmin(signer);
                revert NotAnApprover(signer);
            }
            if (!SignatureChecker.isValidSignatureNowCalldata(signer, digest, list[i].signature)) {
                revert InvalidSignature(signer);
            }
            previous = signer;
        }
    }

    function _consumeRateLimit(uint256 amount) private {
        uint256 available = availableToMint();
        if (amount > available) revert RateLimitExceeded(amount, available);
        _rateAvailable = available - amount;
        _rateUpdatedAt = block.timestamp;
    }

    function _apply(bytes32 changeId, string memory action, bytes memory params) private {
        bytes32 a = keccak256(bytes(action));
        if (a == keccak256("addApprover")) {
            address account = _address(params, action);
            if (!_approvers.add(account)) revert AlreadyApprover(account);
        } else if (a == keccak256("removeApprover")) {
            address account = _address(params, action);
            if (!_approvers.remove(account)) revert NotAnApprover(account);
            _checkApprovalQuorum(_rule);
        } else if (a == keccak256("setApprovalRule")) {
            if (params.length != 128) revert InvalidControlParams(action);
            ApprovalRule memory r;
            (r.largeAmount, r.approvalsBelow, r.approvalsAtOrAbove, r.complianceApprovals) =
                abi.decode(params, (uint256, uint256, uint256, uint256));
            if (r.approvalsBelow == 0 || r.approvalsAtOrAbove < r.approvalsBelow || r.complianceApprovals == 0) {
                revert InvalidApprovalRule();
            }
            _checkApprovalQuorum(r);
            _rule = r;
        } else if (a == keccak256("setRateLimit")) {
            if (params.length != 64) revert InvalidControlParams(action);
            (uint256 capacity, uint256 refillPerSecond) = abi.decode(params, (uint256, uint256));
            uint256 available = availableToMint();
            _rateCapacity = capacity;
            _rateRefillPerSecond = refillPerSecond;
            _rateAvailable = available < capacity ? available : capacity;
            _rateUpdatedAt = block.timestamp;
        } else if (a == keccak256("setCustodian")) {
            if (params.length != 64) revert InvalidControlParams(action);
            (bytes32 vault, address custodian) = abi.decode(params, (bytes32, address));
            _setCustodian(vault, custodian);
        } else if (a == keccak256("addCustodian")) {
            address account = _address(params, action);
            if (!_custodians.add(account)) revert AlreadyCustodian(account);
        } else if (a == keccak256("removeCustodian")) {
            address account = _address(params, action);
            if (!_custodians.remove(account)) revert NotACustodian(account);
        } else if (a == keccak256("addAdmin")) {
            address account = _address(params, action);
            if (!_admins.add(account)) revert AlreadyAdmin(account);
        } else if (a == keccak256("removeAdmin")) {
            address account = _address(params, action);
            if (!_admins.remove(account)) revert NotAnAdmin(account);
            _checkAdminThreshold(_adminThreshold);
        } else if (a == keccak256("setAdminThreshold")) {
            if (params.length != 32) revert InvalidControlParams(action);
            uint256 threshold = abi.decode(params, (uint256));
            _checkAdminThreshold(threshold);
            _adminThreshold = threshold;
        } else if (a == keccak256("setRedemptionAddress")) {
            _redemptionAddress = _address(params, action);
        } else {
            revert UnknownControlAction(action);
        }
        emit ControlChanged(changeId, action, params);
    }

    function _setCustodian(bytes32 vault, address custodian) private {
        if (vault == bytes32(0)) revert ZeroVault();
        VaultReserve storage v = _vaults[vault];
        if (custodian == address(0)) {
            // the vault leaves: its reserve no longer counts; its asOf stays, so a list it
            // signed before can never be replayed should the vault come back
            if (!_vaultIds.remove(vault)) revert UnknownVault(vault);
            _reserve -= v.totalFineWei;
            v.custodian = address(0);
            v.barsRoot = bytes32(0);
            v.totalFineWei = 0;
        } else {
            if (!_custodians.contains(custodian)) revert NotACustodian(custodian);
            _vaultIds.add(vault);
            v.custodian = custodian;
        }
    }

    function _checkApprovalQuorum(ApprovalRule memory r) private view {
        uint256 most = r.approvalsAtOrAbove > r.complianceApprovals ? r.approvalsAtOrAbove : r.complianceApprovals;
        if (most > _approvers.length()) revert QuorumUnreachable(most, _approvers.length());
    }

    function _checkAdminThreshold(uint256 threshold) private view {
        if (threshold < MIN_ADMIN_THRESHOLD || threshold > _admins.length()) {
            revert InvalidAdminThreshold(threshold, _admins.length());
        }
    }

    /// @dev one abi-encoded, non-zero address
    function _address(bytes memory params, string memory action) private pure returns (address account) {
        if (params.length != 32) revert InvalidControlParams(action);
        uint256 word = abi.decode(params, (uint256));
        if (word >> 160 != 0) revert InvalidControlParams(action);
        account = address(uint160(word));
        if (account == address(0)) revert ZeroAddress();
    }
}
